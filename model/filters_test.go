package model

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/seedplan/seedplan/internal/testobjects"
)

// filterCase is one row of a filter's specification: seeds and a shoot in, the seeds kept and the error out.
type filterCase struct {
	name    string
	seeds   []*gardencorev1beta1.Seed
	shoot   *gardencorev1beta1.Shoot
	profile *gardencorev1beta1.SeedSelector
	want    []string
	wantErr string
}

func runFilterCases(t *testing.T, filter Filter, cases []filterCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			shoot := tc.shoot
			if shoot == nil {
				shoot = testShoot("s")
			}
			req, snap := requestFor(shoot, Options{}, tc.seeds...)
			req.CloudProfile = &gardencorev1beta1.CloudProfileSpec{Type: "aws", SeedSelector: tc.profile}
			kept, rejected, err := filter.Filter(req, snap.Seeds, true)
			// Without words, Filter keeps the same seeds with the same error, and words nothing.
			if keptOnly, unworded, keepErr := filter.Filter(req, snap.Seeds, false); !slices.Equal(names(keptOnly), names(kept)) || fmt.Sprint(keepErr) != fmt.Sprint(err) || unworded != nil {
				t.Fatalf("without words Filter gives %v, %v, %v; with words %v, %v", names(keptOnly), unworded, keepErr, names(kept), err)
			}
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("error = %v\nwant    %s", err, tc.wantErr)
				}
				// The chain stops here: the filter keeps no seed, and says for each why.
				if len(kept) > 0 {
					t.Fatalf("kept %v beside the error", names(kept))
				}
				for _, seed := range snap.Seeds {
					if r := rejected[seed.Name]; r.Predicate != filter.Name() || r.Reason == "" {
						t.Fatalf("seed %s: rejection %+v, want one by %s with a reason", seed.Name, r, filter.Name())
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if got := names(kept); !slices.Equal(got, tc.want) {
				t.Fatalf("kept %v, want %v", got, tc.want)
			}
			for _, seed := range snap.Seeds {
				_, wasRejected := rejected[seed.Name]
				if wasRejected == slices.Contains(tc.want, seed.Name) {
					t.Fatalf("seed %s: kept=%v but rejected=%v (%v)", seed.Name, slices.Contains(tc.want, seed.Name), wasRejected, rejected[seed.Name])
				}
				if wasRejected && rejected[seed.Name].Reason == "" {
					t.Fatalf("seed %s rejected without a reason", seed.Name)
				}
			}
		})
	}
}

// Spec §2.1: not deleting, visible, lastOperation present, GardenletReady True, BackupBucketsReady True with backup.
func TestUsableFilter(t *testing.T) {
	now := metav1.Now()
	runFilterCases(t, UsableFilter(), []filterCase{
		{name: "ready seed", seeds: []*gardencorev1beta1.Seed{testSeed("a")}, want: []string{"a"}},
		{name: "deleting seed is dropped", seeds: []*gardencorev1beta1.Seed{testSeed("a"), testSeed("b", func(s *gardencorev1beta1.Seed) { s.DeletionTimestamp = &now })}, want: []string{"a"}},
		{name: "invisible seed is dropped", seeds: []*gardencorev1beta1.Seed{testSeed("a"), testSeed("b", func(s *gardencorev1beta1.Seed) { s.Spec.Settings.Scheduling.Visible = false })}, want: []string{"a"}},
		{name: "seed without lastOperation is dropped", seeds: []*gardencorev1beta1.Seed{testSeed("a"), testSeed("b", func(s *gardencorev1beta1.Seed) { s.Status.LastOperation = nil })}, want: []string{"a"}},
		{name: "a failed lastOperation is fine", seeds: []*gardencorev1beta1.Seed{testSeed("a", func(s *gardencorev1beta1.Seed) {
			s.Status.LastOperation.State = gardencorev1beta1.LastOperationStateFailed
		})}, want: []string{"a"}},
		{name: "gardenlet not ready", seeds: []*gardencorev1beta1.Seed{testSeed("a"), testSeed("b", func(s *gardencorev1beta1.Seed) { s.Status.Conditions[0].Status = gardencorev1beta1.ConditionUnknown })}, want: []string{"a"}},
		{name: "backup without BackupBucketsReady", seeds: []*gardencorev1beta1.Seed{testSeed("a"), testSeed("b", func(s *gardencorev1beta1.Seed) { s.Spec.Backup = &gardencorev1beta1.Backup{Provider: "aws"} })}, want: []string{"a"}},
		{name: "backup with BackupBucketsReady", seeds: []*gardencorev1beta1.Seed{testSeed("b", func(s *gardencorev1beta1.Seed) {
			s.Spec.Backup = &gardencorev1beta1.Backup{Provider: "aws"}
			s.Status.Conditions = append(s.Status.Conditions, gardencorev1beta1.Condition{Type: gardencorev1beta1.SeedBackupBucketsReady, Status: gardencorev1beta1.ConditionTrue})
		})}, want: []string{"b"}},
		{name: "none usable", seeds: []*gardencorev1beta1.Seed{testSeed("a", func(s *gardencorev1beta1.Seed) { s.Status.LastOperation = nil })},
			wantErr: "none of the 1 seeds is valid for scheduling (not deleting, visible and ready)"},
	})
}

// Spec §2.2 and §2.3: label selectors of the CloudProfile and of the Shoot.
func TestSeedSelectorFilters(t *testing.T) {
	prod, staging := testSeed("prod"), testSeed("staging", func(s *gardencorev1beta1.Seed) { s.Labels["env"] = "staging" })
	invalid := &gardencorev1beta1.SeedSelector{LabelSelector: metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
		{Key: "env", Operator: "Likes", Values: []string{"prod"}}}}}
	deprecated := &gardencorev1beta1.SeedSelector{LabelSelector: metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
		{Key: "env", Operator: metav1.LabelSelectorOpNotIn, Values: []string{"staging"}}}}}
	runFilterCases(t, CloudProfileSeedSelectorFilter(), []filterCase{
		{name: "no selector keeps all", seeds: []*gardencorev1beta1.Seed{prod, staging}, want: []string{"prod", "staging"}},
		{name: "empty selector keeps all", seeds: []*gardencorev1beta1.Seed{prod, staging}, profile: &gardencorev1beta1.SeedSelector{}, want: []string{"prod", "staging"}},
		{name: "expression selects", seeds: []*gardencorev1beta1.Seed{prod, staging}, profile: deprecated, want: []string{"prod"}},
		{name: "nothing matches", seeds: []*gardencorev1beta1.Seed{staging}, profile: deprecated,
			wantErr: "none out of the 1 seeds has the matching labels required by seed selector of 'CloudProfile' (selector: 'env notin (staging)')"},
		{name: "a selector that does not convert excludes every seed", seeds: []*gardencorev1beta1.Seed{prod, staging}, profile: invalid,
			wantErr: `label selector conversion failed: {map[] [{env Likes [prod]}]} for seedSelector: "Likes" is not a valid label selector operator`},
	})
	selecting := func(labels map[string]string, providerTypes ...string) *gardencorev1beta1.Shoot {
		return testShoot("s", func(s *gardencorev1beta1.Shoot) {
			s.Spec.SeedSelector = &gardencorev1beta1.SeedSelector{LabelSelector: metav1.LabelSelector{MatchLabels: labels}, ProviderTypes: providerTypes}
		})
	}
	runFilterCases(t, ShootSeedSelectorFilter(), []filterCase{
		{name: "matchLabels", seeds: []*gardencorev1beta1.Seed{prod, staging}, shoot: selecting(map[string]string{"env": "staging"}), want: []string{"staging"}},
		{name: "the shoot's providerTypes are ignored", seeds: []*gardencorev1beta1.Seed{prod}, shoot: selecting(nil, "gcp"), want: []string{"prod"}},
		{name: "nothing matches", seeds: []*gardencorev1beta1.Seed{prod}, shoot: selecting(map[string]string{"env": "dev"}),
			wantErr: "none out of the 1 seeds has the matching labels required by seed selector of 'Shoot' (selector: 'env=dev')"},
		{name: "a selector that does not convert excludes every seed", seeds: []*gardencorev1beta1.Seed{prod, staging}, shoot: selecting(map[string]string{"env/": "prod"}),
			wantErr: `label selector conversion failed: {map[env/:prod] []} for seedSelector: key: Invalid value: "env/": name part must be non-empty; name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`},
	})
}

// Spec §2.4: provider type, or the CloudProfile's providerTypes.
func TestProviderTypeFilter(t *testing.T) {
	aws, gcp := testSeed("aws"), testSeed("gcp", inRegion("gcp", "europe-west3"))
	runFilterCases(t, ProviderTypeFilter(), []filterCase{
		{name: "same provider by default", seeds: []*gardencorev1beta1.Seed{aws, gcp}, want: []string{"aws"}},
		{name: "providerTypes lists gcp", seeds: []*gardencorev1beta1.Seed{aws, gcp}, profile: &gardencorev1beta1.SeedSelector{ProviderTypes: []string{"gcp"}}, want: []string{"gcp"}},
		{name: "providerTypes star", seeds: []*gardencorev1beta1.Seed{aws, gcp}, profile: &gardencorev1beta1.SeedSelector{ProviderTypes: []string{"*"}}, want: []string{"aws", "gcp"}},
		{name: "no seed of the provider", seeds: []*gardencorev1beta1.Seed{gcp}, wantErr: `none out of the 1 seeds has a matching provider for "aws"`},
	})
}

// Spec §2.5: zone-HA control planes need seeds with at least three zones; "node" is like non-HA.
func TestZonalControlPlaneFilter(t *testing.T) {
	three, two := testSeed("three"), testSeed("two", func(s *gardencorev1beta1.Seed) { s.Spec.Provider.Zones = s.Spec.Provider.Zones[:2] })
	ha := func(tolerance gardencorev1beta1.FailureToleranceType) *gardencorev1beta1.Shoot {
		return testShoot("s", func(s *gardencorev1beta1.Shoot) {
			s.Spec.ControlPlane = &gardencorev1beta1.ControlPlane{HighAvailability: &gardencorev1beta1.HighAvailability{FailureTolerance: gardencorev1beta1.FailureTolerance{Type: tolerance}}}
		})
	}
	runFilterCases(t, ZonalControlPlaneFilter(), []filterCase{
		{name: "non-HA keeps all", seeds: []*gardencorev1beta1.Seed{three, two}, want: []string{"three", "two"}},
		{name: "node tolerance keeps all", seeds: []*gardencorev1beta1.Seed{three, two}, shoot: ha(gardencorev1beta1.FailureToleranceTypeNode), want: []string{"three", "two"}},
		{name: "zone tolerance needs 3 zones", seeds: []*gardencorev1beta1.Seed{three, two}, shoot: ha(gardencorev1beta1.FailureToleranceTypeZone), want: []string{"three"}},
		{name: "none with 3 zones", seeds: []*gardencorev1beta1.Seed{two}, shoot: ha(gardencorev1beta1.FailureToleranceTypeZone),
			wantErr: "none of the 1 seeds has at least 3 zones for hosting a shoot control plane with failure tolerance type 'zone'"},
	})
}

// Spec §2.6: explicit control-plane zones, Enforce and Prefer zone selection.
func TestZoneSelectionFilter(t *testing.T) {
	mode := func(m gardencorev1beta1.ZoneSelectionMode, zones ...string) seedOption {
		return func(s *gardencorev1beta1.Seed) {
			s.Spec.Settings.ZoneSelection = &gardencorev1beta1.SeedSettingZoneSelection{Mode: m}
			if zones != nil {
				s.Spec.Provider.Zones = zones
			}
		}
	}
	plain := testSeed("plain")
	preferAB := testSeed("prefer-ab", mode(gardencorev1beta1.ZoneSelectionModePrefer, "eu-central-1a", "eu-central-1b"))
	preferB := testSeed("prefer-b", mode(gardencorev1beta1.ZoneSelectionModePrefer, "eu-central-1b"))
	enforceB := testSeed("enforce-b", mode(gardencorev1beta1.ZoneSelectionModeEnforce, "eu-central-1b"))
	workersIn := func(zones ...string) *gardencorev1beta1.Shoot {
		return testShoot("s", func(s *gardencorev1beta1.Shoot) { s.Spec.Provider.Workers[0].Zones = zones })
	}
	controlPlaneIn := func(zones ...string) *gardencorev1beta1.Shoot {
		return testShoot("s", func(s *gardencorev1beta1.Shoot) { s.Spec.ControlPlane = &gardencorev1beta1.ControlPlane{Zones: zones} })
	}
	runFilterCases(t, ZoneSelectionFilter{}, []filterCase{
		{name: "Enforce without overlap is dropped", seeds: []*gardencorev1beta1.Seed{plain, enforceB}, shoot: workersIn("eu-central-1a"), want: []string{"plain"}},
		{name: "Enforce with overlap stays", seeds: []*gardencorev1beta1.Seed{plain, enforceB}, shoot: workersIn("eu-central-1b"), want: []string{"enforce-b", "plain"}},
		{name: "Enforce stays for workerless shoots", seeds: []*gardencorev1beta1.Seed{enforceB}, shoot: testShoot("s", func(s *gardencorev1beta1.Shoot) { s.Spec.Provider.Workers = nil }), want: []string{"enforce-b"}},
		{name: "only Enforce without overlap", seeds: []*gardencorev1beta1.Seed{enforceB}, shoot: workersIn("eu-central-1a"),
			wantErr: "none of the 1 seeds has any zone overlap with the shoot's worker pool zones (zone selection mode: Enforce)"},
		{name: "Prefer without overlap loses against any unrestricted seed", seeds: []*gardencorev1beta1.Seed{plain, preferB}, shoot: workersIn("eu-central-1a"), want: []string{"plain"}},
		{name: "Prefer with overlap stays", seeds: []*gardencorev1beta1.Seed{plain, preferAB, preferB}, shoot: workersIn("eu-central-1a"), want: []string{"plain", "prefer-ab"}},
		{name: "only non-overlapping Prefer seeds are all kept", seeds: []*gardencorev1beta1.Seed{preferB}, shoot: workersIn("eu-central-1c"), want: []string{"prefer-b"}},
		{name: "explicit control-plane zones need all zones, whatever the mode", seeds: []*gardencorev1beta1.Seed{plain, preferAB, enforceB}, shoot: controlPlaneIn("eu-central-1b", "eu-central-1c"), want: []string{"plain"}},
		{name: "explicit control-plane zones nowhere", seeds: []*gardencorev1beta1.Seed{preferB}, shoot: controlPlaneIn("eu-central-1c"),
			wantErr: "none of the 1 seeds contains all requested control plane zones [eu-central-1c]"},
		{name: "zone-HA shoots skip zone selection", seeds: []*gardencorev1beta1.Seed{enforceB}, shoot: testShoot("s", func(s *gardencorev1beta1.Shoot) {
			s.Spec.ControlPlane = &gardencorev1beta1.ControlPlane{Zones: []string{"eu-central-1c"}, HighAvailability: &gardencorev1beta1.HighAvailability{FailureTolerance: gardencorev1beta1.FailureTolerance{Type: gardencorev1beta1.FailureToleranceTypeZone}}}
		}), want: []string{"enforce-b"}},
	})
}

// Spec §2.7: access restrictions by name, with Gardener's count shortcut.
func TestAccessRestrictionsFilter(t *testing.T) {
	restricted := func(names ...string) seedOption {
		return func(s *gardencorev1beta1.Seed) {
			for _, n := range names {
				s.Spec.AccessRestrictions = append(s.Spec.AccessRestrictions, gardencorev1beta1.AccessRestriction{Name: n})
			}
		}
	}
	wanting := func(names ...string) *gardencorev1beta1.Shoot {
		return testShoot("s", func(s *gardencorev1beta1.Shoot) {
			for _, n := range names {
				s.Spec.AccessRestrictions = append(s.Spec.AccessRestrictions, gardencorev1beta1.AccessRestrictionWithOptions{AccessRestriction: gardencorev1beta1.AccessRestriction{Name: n}})
			}
		})
	}
	eu, plain := testSeed("eu", restricted("eu-access-only")), testSeed("plain")
	runFilterCases(t, AccessRestrictionsFilter(), []filterCase{
		{name: "no restrictions keeps all", seeds: []*gardencorev1beta1.Seed{eu, plain}, want: []string{"eu", "plain"}},
		{name: "restricted shoot needs supporting seed", seeds: []*gardencorev1beta1.Seed{eu, plain}, shoot: wanting("eu-access-only"), want: []string{"eu"}},
		{name: "duplicates count against the seed", seeds: []*gardencorev1beta1.Seed{eu}, shoot: wanting("eu-access-only", "eu-access-only"),
			wantErr: "none of the 1 seeds supports the access restrictions configured in the shoot specification"},
	})
}

// Spec §2.8: a Gardener default domain must be <shoot>.<project>.<domain> of the seed; custom domains pass.
func TestDNSDomainFilter(t *testing.T) {
	withDomain := func(d string) seedOption {
		return func(s *gardencorev1beta1.Seed) {
			s.Spec.DNS.Defaults = []gardencorev1beta1.SeedDNSProviderConfig{{Type: "aws-route53", Domain: d}}
		}
	}
	a, b := testSeed("a", withDomain("a.example.com")), testSeed("b", withDomain("b.example.com"))
	domain := func(d string) *gardencorev1beta1.Shoot {
		return testShoot("web", func(s *gardencorev1beta1.Shoot) { s.Spec.DNS = &gardencorev1beta1.DNS{Domain: new(d)} })
	}
	runFilterCases(t, DNSDomainFilter{}, []filterCase{
		{name: "no domain keeps all", seeds: []*gardencorev1beta1.Seed{a, b}, want: []string{"a", "b"}},
		{name: "default domain of seed b", seeds: []*gardencorev1beta1.Seed{a, b}, shoot: domain("web.dev.b.example.com"), want: []string{"b"}},
		{name: "custom domain keeps all", seeds: []*gardencorev1beta1.Seed{a, b}, shoot: domain("web.example.org"), want: []string{"a", "b"}},
		{name: "recognised domain in the wrong format", seeds: []*gardencorev1beta1.Seed{a, b}, shoot: domain("other.dev.b.example.com"),
			wantErr: `none of the 2 seeds support the domain "other.dev.b.example.com" configured in the shoot specification`},
	})
}

// Spec §2.9: the emergency-stop annotation, exactly "true".
func TestEmergencyStopFilter(t *testing.T) {
	annotated := func(v string) seedOption {
		return func(s *gardencorev1beta1.Seed) {
			s.Annotations = map[string]string{"shoot.gardener.cloud/emergency-stop-reconciliations": v}
		}
	}
	runFilterCases(t, EmergencyStopFilter(), []filterCase{
		{name: "stopped seed dropped", seeds: []*gardencorev1beta1.Seed{testSeed("a"), testSeed("b", annotated("true"))}, want: []string{"a"}},
		{name: "only the exact string counts", seeds: []*gardencorev1beta1.Seed{testSeed("b", annotated("True"))}, want: []string{"b"}},
		{name: "all stopped", seeds: []*gardencorev1beta1.Seed{testSeed("b", annotated("true"))}, wantErr: "none of the 1 seeds have enabled shoot reconciliations currently"},
	})
}

// Spec §2.10b: taints and tolerations.
func TestTaintsTolerated(t *testing.T) {
	taint := func(key string, value *string) gardencorev1beta1.SeedTaint {
		return gardencorev1beta1.SeedTaint{Key: key, Value: value}
	}
	toleration := func(key string, value *string) gardencorev1beta1.Toleration {
		return gardencorev1beta1.Toleration{Key: key, Value: value}
	}
	for _, tc := range []struct {
		name        string
		taints      []gardencorev1beta1.SeedTaint
		tolerations []gardencorev1beta1.Toleration
		want        bool
	}{
		{name: "no taints", want: true},
		{name: "taint without toleration", taints: []gardencorev1beta1.SeedTaint{taint("protected", nil)}, want: false},
		{name: "key tolerated", taints: []gardencorev1beta1.SeedTaint{taint("protected", nil)}, tolerations: []gardencorev1beta1.Toleration{toleration("protected", nil)}, want: true},
		{name: "valueless taint tolerated by any value", taints: []gardencorev1beta1.SeedTaint{taint("k", nil)}, tolerations: []gardencorev1beta1.Toleration{toleration("k", new("x"))}, want: true},
		{name: "value must match", taints: []gardencorev1beta1.SeedTaint{taint("k", new("a"))}, tolerations: []gardencorev1beta1.Toleration{toleration("k", new("b"))}, want: false},
		{name: "nil toleration value is the empty string", taints: []gardencorev1beta1.SeedTaint{taint("k", new(""))}, tolerations: []gardencorev1beta1.Toleration{toleration("k", nil)}, want: true},
		{name: "more taints than tolerations", taints: []gardencorev1beta1.SeedTaint{taint("k", nil), taint("k", nil)}, tolerations: []gardencorev1beta1.Toleration{toleration("k", nil)}, want: false},
		{name: "the last toleration of a key counts", taints: []gardencorev1beta1.SeedTaint{taint("k", new("a"))}, tolerations: []gardencorev1beta1.Toleration{toleration("k", new("a")), toleration("k", new("b"))}, want: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := TaintsTolerated(tc.taints, tc.tolerations); got != tc.want {
				t.Fatalf("TaintsTolerated = %v, want %v", got, tc.want)
			}
		})
	}
}

// Spec §2.10a: IPv6 shoot networks vs seed networks, IPv4 overlap allowed, reserved ranges, shoot defaults.
func TestNetworkConflicts(t *testing.T) {
	networking := func(n gardencorev1beta1.Networking) shootOption {
		return func(s *gardencorev1beta1.Shoot) { s.Spec.Networking = &n }
	}
	v4 := []gardencorev1beta1.IPFamily{gardencorev1beta1.IPFamilyIPv4}
	v6 := []gardencorev1beta1.IPFamily{gardencorev1beta1.IPFamilyIPv6}
	seed := testSeed("a", func(s *gardencorev1beta1.Seed) {
		s.Spec.Networks = gardencorev1beta1.SeedNetworks{Nodes: new("10.250.0.0/16"), Pods: "2001:db8:1::/48", Services: "10.244.0.0/16"}
	})
	seedWithDefaults := testSeed("d", func(s *gardencorev1beta1.Seed) {
		s.Spec.Networks.ShootDefaults = &gardencorev1beta1.ShootNetworks{Pods: new("242.0.0.0/16"), Services: new("100.64.0.0/13")}
	})
	for _, tc := range []struct {
		name   string
		seed   *gardencorev1beta1.Seed
		shoot  *gardencorev1beta1.Shoot
		strict bool
		want   string
		own    bool // the conflict is the shoot's own: every seed would have it (OwnNetworkConflicts)
	}{
		{name: "IPv4 overlap with the seed is allowed", seed: seed, shoot: testShoot("s", networking(gardencorev1beta1.Networking{Nodes: new("10.250.0.0/16"), Services: new("10.244.0.0/16"), IPFamilies: v4}))},
		{name: "strict mode rejects IPv4 overlap", seed: seed, strict: true, shoot: testShoot("s", networking(gardencorev1beta1.Networking{Nodes: new("10.250.0.0/16"), IPFamilies: v4})),
			want: `invalid networks: [Invalid value: "10.250.0.0/16": shoot node network intersects with seed node network]`},
		{name: "IPv6 overlap is rejected", seed: seed, shoot: testShoot("s", networking(gardencorev1beta1.Networking{Nodes: new("2001:db8:1:2::/64"), IPFamilies: v6})),
			want: `invalid networks: [Invalid value: "2001:db8:1:2::/64": shoot node network intersects with seed pod network]`},
		{name: "reserved range", seed: seed, shoot: testShoot("s", networking(gardencorev1beta1.Networking{Nodes: new("242.1.0.0/16"), IPFamilies: v4})),
			want: `invalid networks: [Invalid value: "242.1.0.0/16": node network intersects with reserved shoot node network mapping range (242.0.0.0/8)]`, own: true},
		{name: "unparsable CIDR intersects everything", seed: seed, shoot: testShoot("s", networking(gardencorev1beta1.Networking{Nodes: new("not-a-cidr"), IPFamilies: v4})),
			want: `invalid networks: [Invalid value: "not-a-cidr": node network intersects with default vpn network (fd8f:6d53:b97a:1::/96) ` +
				`Invalid value: "not-a-cidr": node network intersects with reserved kube-apiserver mapping range (240.0.0.0/8) ` +
				`Invalid value: "not-a-cidr": node network intersects with reserved seed pod network mapping range (241.0.0.0/8) ` +
				`Invalid value: "not-a-cidr": node network intersects with reserved shoot node network mapping range (242.0.0.0/8) ` +
				`Invalid value: "not-a-cidr": node network intersects with reserved shoot service network mapping range (243.0.0.0/8) ` +
				`Invalid value: "not-a-cidr": node network intersects with reserved shoot pod network mapping range (244.0.0.0/8)]`, own: true},
		{name: "unset pods take the seed's shoot default of the same family", seed: seedWithDefaults, shoot: testShoot("s", networking(gardencorev1beta1.Networking{Nodes: new("10.250.0.0/16"), IPFamilies: v4})),
			want: `invalid networks: [Invalid value: "242.0.0.0/16": pod network intersects with reserved shoot node network mapping range (242.0.0.0/8)]`},
		{name: "shoot defaults of another family are not used", seed: seedWithDefaults, shoot: testShoot("s", networking(gardencorev1beta1.Networking{Nodes: new("2001:db8:9::/48"), IPFamilies: v6}))},
		{name: "workerless shoots get no default pods", seed: seedWithDefaults, shoot: testShoot("s", networking(gardencorev1beta1.Networking{IPFamilies: v4}), func(s *gardencorev1beta1.Shoot) { s.Spec.Provider.Workers = nil })},
		{name: "status networking must list services", seed: seed, shoot: testShoot("s", func(s *gardencorev1beta1.Shoot) {
			s.Status.Networking = &gardencorev1beta1.NetworkingStatus{Nodes: []string{"10.250.0.0/16"}, Pods: []string{"100.96.0.0/11"}}
		}), want: `invalid networks: [Required value: services is required]`, own: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := NetworkConflicts(tc.seed, tc.shoot, tc.strict); got != tc.want {
				t.Fatalf("got  %s\nwant %s", got, tc.want)
			}
			own := ""
			if tc.own {
				own = tc.want
			}
			if got := OwnNetworkConflicts(tc.shoot); got != own {
				t.Fatalf("own conflicts: got  %q\nwant %q", got, own)
			}
		})
	}
}

// Spec §2.10: the combined "0/N seed cluster candidate(s)" message lists reasons sorted by seed name.
func TestAppendCandidatesMessage(t *testing.T) {
	got := string(AppendCandidatesMessage(nil, 3, []SeedReason{{"a", ReasonTaints}, {"b", ReasonCapacity}}))
	want := "0/3 seed cluster candidate(s) are eligible for scheduling: {a => shoot does not tolerate the seed's taints, b => seed does not have available capacity for shoots}"
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestStaticFiltersFollowGardenersOrder(t *testing.T) {
	var got []string
	for _, f := range StaticFilters() {
		got = append(got, f.Name())
	}
	want := "SeedUsable CloudProfileSeedSelector ShootSeedSelector ProviderType ZonalControlPlane ZoneSelection AccessRestrictions DNSDomain EmergencyStop Networks Tolerations"
	if strings.Join(got, " ") != want {
		t.Fatalf("filter order %v", got)
	}
}

// A seed's change matters to a waiting shoot when the seed may take a shoot it did not before: created usable,
// usable again, changed in what the predicates read (labels, taints, zones, …) or given more allocatable shoots —
// not the status a gardenlet refreshes, and not a seed that becomes unusable or smaller.
func TestSeedAdmitsMore(t *testing.T) {
	later := metav1.NewTime(time.Now().Add(time.Minute))
	cordoned := func(s *gardencorev1beta1.Seed) { s.Spec.Settings.Scheduling.Visible = false }
	gardenletUnknown := func(s *gardencorev1beta1.Seed) { s.Status.Conditions[0].Status = gardencorev1beta1.ConditionUnknown }
	unlimited := func(s *gardencorev1beta1.Seed) { s.Status.Allocatable = nil }
	for _, tc := range []struct {
		name   string
		from   seedOption // the seed before, besides allocatable 10 and taint gpu
		change func(*gardencorev1beta1.Seed)
		want   bool
	}{
		{"nothing", nil, func(*gardencorev1beta1.Seed) {}, false},
		{"a heartbeat: the condition refreshed", nil, func(s *gardencorev1beta1.Seed) { s.Status.Conditions[0].LastUpdateTime = later }, false},
		{"a new resourceVersion and observedGeneration", nil, func(s *gardencorev1beta1.Seed) { s.ResourceVersion, s.Status.ObservedGeneration = "9", 4 }, false},
		{"more allocatable shoots", nil, allocatable(11), true},
		{"fewer allocatable shoots", nil, allocatable(9), false},
		{"no allocatable limit any more", nil, unlimited, true},
		{"a limit where there was none", unlimited, allocatable(10), false},
		{"the gardenlet ready again", gardenletUnknown, func(s *gardencorev1beta1.Seed) { s.Status.Conditions[0].Status = gardencorev1beta1.ConditionTrue }, true},
		{"the gardenlet not ready", nil, gardenletUnknown, false},
		{"uncordoned", cordoned, func(s *gardencorev1beta1.Seed) { s.Spec.Settings.Scheduling.Visible = true }, true},
		{"cordoned", nil, cordoned, false},
		{"uncordoned but not ready", func(s *gardencorev1beta1.Seed) { cordoned(s); gardenletUnknown(s) }, func(s *gardencorev1beta1.Seed) { s.Spec.Settings.Scheduling.Visible = true }, false},
		{"a taint removed", nil, func(s *gardencorev1beta1.Seed) { s.Spec.Taints = nil }, true},
		{"a label", nil, func(s *gardencorev1beta1.Seed) { s.Labels["tier"] = "gold" }, true},
		{"a zone more", nil, func(s *gardencorev1beta1.Seed) {
			s.Spec.Provider.Zones = append(s.Spec.Provider.Zones, "eu-central-1d")
		}, true},
		{"being deleted", nil, func(s *gardencorev1beta1.Seed) { s.DeletionTimestamp = &later }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := testSeed("a", allocatable(10), testobjects.Tainted("gpu"))
			if tc.from != nil {
				tc.from(before)
			}
			after := before.DeepCopy()
			tc.change(after)
			if got := SeedAdmitsMore(before, after); got != tc.want {
				t.Errorf("SeedAdmitsMore = %v, want %v", got, tc.want)
			}
		})
	}
	for _, tc := range []struct {
		name string
		seed *gardencorev1beta1.Seed
		want bool
	}{
		{"created usable", testSeed("a"), true},
		{"created without the status a gardenlet writes", testSeed("a", func(s *gardencorev1beta1.Seed) { s.Status = gardencorev1beta1.SeedStatus{} }), false},
	} {
		if got := SeedAdmitsMore(nil, tc.seed); got != tc.want {
			t.Errorf("%s: SeedAdmitsMore = %v, want %v", tc.name, got, tc.want)
		}
	}
}
