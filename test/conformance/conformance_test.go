// Package conformance drives the real gardener-scheduler (v1.150.0) shoot reconciler, one shoot at a time, on
// generated landscapes and asserts that seedplan's greedy solver decides every shoot the same way: the same seed,
// or unschedulable with the same message. It lives in its own module so that seedplan's go.mod does not carry
// gardener's dependencies.
package conformance

import (
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gardener/gardener/pkg/api/indexer"
	schedulerconfigv1alpha1 "github.com/gardener/gardener/pkg/apis/config/scheduler/v1alpha1"
	gardencore "github.com/gardener/gardener/pkg/apis/core"
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/gardener/gardener/pkg/client/kubernetes"
	shootscheduler "github.com/gardener/gardener/pkg/scheduler/controller/shoot"
	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/events"
	"sigs.k8s.io/controller-runtime/pkg/client"
	fakeclient "sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/seedplan/seedplan/bench/generator"
	"github.com/seedplan/seedplan/ingest"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
	"github.com/seedplan/seedplan/solver"
)

// shoots is how many pending shoots each generated landscape has.
const shoots = 200

// landscapeRange is which generated landscapes TestGreedyMatchesGardenerScheduler compares: how many, and the
// generator seed of the first. make test compares 50 from 1000; SEEDPLAN_CONFORMANCE_LANDSCAPES and
// SEEDPLAN_CONFORMANCE_FIRST_SEED ask for others (make conformance-long: 200 from 5000, landscapes make test never
// sees).
func landscapeRange(t *testing.T) (count int, first uint64) {
	t.Helper()
	count, first = 50, 1000
	if v := os.Getenv("SEEDPLAN_CONFORMANCE_LANDSCAPES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 4 {
			t.Fatalf("SEEDPLAN_CONFORMANCE_LANDSCAPES=%q: want a whole number of at least 4 (one of each contention)", v)
		}
		count = n
	}
	if v := os.Getenv("SEEDPLAN_CONFORMANCE_FIRST_SEED"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("SEEDPLAN_CONFORMANCE_FIRST_SEED=%q: want a whole number", v)
		}
		first = n
	}
	return count, first
}

// predicates are every reason a shoot can be left unschedulable for, in the order of Gardener's filter chain.
func predicates() []string {
	return []string{
		model.PredicateReferences, model.PredicateSeedUsable, model.PredicateCloudProfileSeedSelector,
		model.PredicateShootSeedSelector, model.PredicateProviderType, model.PredicateZonalControlPlane,
		model.PredicateZoneSelection, model.PredicateAccessRestrictions, model.PredicateDNSDomain,
		model.PredicateEmergencyStop, model.PredicateNetworks, model.PredicateTolerations, model.PredicateCapacity,
		model.PredicateStrategy,
	}
}

// generatorUnreached are the filters that never leave a shoot of the generated landscapes without a seed: their
// shoots' selectors always match some seeds, and their seeds are never all unusable.
func generatorUnreached() []string {
	return []string{model.PredicateShootSeedSelector, model.PredicateCloudProfileSeedSelector, model.PredicateSeedUsable}
}

// requireDecidedBy fails the test for each of the predicates that left no shoot unschedulable (reasons counts
// the shoots each did): the comparison would prove nothing of its message.
func requireDecidedBy(t *testing.T, reasons map[string]int, predicates []string) {
	t.Helper()
	for _, predicate := range predicates {
		if reasons[predicate] == 0 {
			t.Errorf("no shoot was left unschedulable by %s: its message was never compared", predicate)
		}
	}
}

// decision is what happened to one shoot: the seed it was bound to, or the scheduling error.
type decision struct {
	seed    string
	message string
}

// matches reports whether seedplan's decision is the gardener-scheduler's: the same seed, or unschedulable with
// Gardener's message, which seedplan may follow with why (other shoots of its window took the room).
func (d decision) matches(gardeners decision) bool {
	return d.seed == gardeners.seed && strings.HasPrefix(d.message, gardeners.message)
}

func (d decision) String() string {
	if d.seed != "" {
		return "seed " + d.seed
	}
	return "unschedulable: " + d.message
}

func TestGreedyMatchesGardenerScheduler(t *testing.T) {
	for _, strategy := range []model.Strategy{model.SameRegion, model.MinimalDistance} {
		t.Run(string(strategy), func(t *testing.T) {
			t.Parallel()
			landscapes, first := landscapeRange(t)
			compared, placed := 0, 0
			reasons := map[string]int{}
			for i := range landscapes {
				cfg := generator.Config{
					Seeds: 20 + i%3*10, Shoots: shoots, Existing: 60 + i%4*40,
					Contention: []float64{0, 0.8, 1.0, 1.2}[i%4],
					Seed:       first + uint64(i), Mix: generator.StressMix(),
				}
				cfg.Mix.CrossProvider = i%2 == 0
				objs, err := generator.Generate(cfg)
				if err != nil {
					t.Fatal(err)
				}
				if i%10 == 0 {
					// Every tenth landscape goes through the YAML files `seedplan generate` writes and back.
					objs = roundTrip(t, objs, "yaml")
				}
				ours, theirs := compareDecisions(t, fmt.Sprintf("landscape %d, ", i), objs, strategy)
				for reason, n := range ours.reasons {
					reasons[reason] += n
				}
				for _, key := range ours.order {
					compared++
					if theirs[key].seed != "" {
						placed++
					}
				}
			}
			if compared != landscapes*shoots {
				t.Fatalf("compared %d decisions, want %d", compared, landscapes*shoots)
			}
			if placed < compared/4 || placed == compared {
				t.Fatalf("landscapes are not discriminating: %d of %d shoots bound", placed, compared)
			}
			// Each filter the generated landscapes reach must decide some shoots, or the comparison proves nothing
			// of its message; the ones they cannot reach are TestGreedyMatchesGardenerSchedulerWhenAFilterLeavesNoSeed's.
			unreached := generatorUnreached()
			requireDecidedBy(t, reasons, slices.DeleteFunc(predicates(), func(p string) bool { return slices.Contains(unreached, p) }))
			t.Logf("%s: %d decisions identical (%d bound, %d unschedulable) over %d landscapes; unschedulable by: %v",
				strategy, compared, placed, compared-placed, landscapes, reasons)
		})
	}
}

// Seed selectors that do not convert — shoots' own, of every kind Kubernetes refuses, and one cloud profile's —
// fail their shoots with the same message in the real gardener-scheduler and in seedplan's greedy solver, and the
// landscape's other shoots are decided alike. The generator writes no such selector, so the landscapes above never
// have one, and the gardener-apiserver refuses them; a landscape's files can hold them.
func TestGreedyMatchesGardenerSchedulerOnInvalidSelectors(t *testing.T) {
	invalid := []metav1.LabelSelector{
		{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "environment", Operator: "Likes", Values: []string{"prod"}}}},
		{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "environment", Operator: metav1.LabelSelectorOpIn}}},
		{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "environment", Operator: metav1.LabelSelectorOpExists, Values: []string{"prod"}}}},
		{MatchLabels: map[string]string{"environment/": "prod"}},
		{MatchLabels: map[string]string{"environment": "not a value"}},
		{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "environment", Operator: metav1.LabelSelectorOpIn, Values: []string{"not a value"}}}},
	}
	for _, strategy := range []model.Strategy{model.SameRegion, model.MinimalDistance} {
		t.Run(string(strategy), func(t *testing.T) {
			objs, err := generator.Generate(generator.Config{Seeds: 20, Shoots: shoots, Existing: 60, Contention: 0.8, Seed: 77, Mix: generator.StressMix()})
			if err != nil {
				t.Fatal(err)
			}
			ownInvalid := map[string]int{} // shoot: its selector's index in invalid
			for i, shoot := range objs.Shoots {
				if shoot.Spec.SeedName == nil && i%4 == 0 {
					n := len(ownInvalid) % len(invalid)
					shoot.Spec.SeedSelector = &gardencorev1beta1.SeedSelector{LabelSelector: invalid[n]}
					ownInvalid[shoot.Namespace+"/"+shoot.Name] = n
				}
			}
			// The profile's selector is none of the shoots', so that the message tells whose selector failed.
			profileSelector := metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "seed.gardener.cloud/deprecated", Operator: "Missing"}}}
			for _, profile := range objs.CloudProfiles {
				if profile.Name == "gcp" {
					profile.Spec.SeedSelector = &gardencorev1beta1.SeedSelector{LabelSelector: profileSelector}
				}
			}
			ours, theirs := compareDecisions(t, "", objs, strategy)
			failedOwn, failedProfile := map[int]int{}, 0
			for _, key := range ours.order {
				want := theirs[key]
				n, own := ownInvalid[key]
				switch {
				case !strings.HasPrefix(want.message, "label selector conversion failed"):
				case strings.Contains(want.message, `"Missing" is not a valid label selector operator`):
					failedProfile++
				case own:
					failedOwn[n]++
				default:
					t.Errorf("shoot %s failed for a selector it was not given: %s", key, want)
				}
			}
			if len(failedOwn) < len(invalid) || failedProfile == 0 {
				t.Fatalf("shoots failing for their own selector, by selector: %v (of %d kinds); for their cloud profile's: %d: the test would not compare every kind",
					failedOwn, len(invalid), failedProfile)
			}
			t.Logf("%s: %d decisions identical; failing for their own selector, by kind: %v; for their cloud profile's: %d", strategy, len(ours.order), failedOwn, failedProfile)
		})
	}
}

// A seed's status.allocatable.shoots is not validated, so a garden can hold one that is no whole number of shoots:
// the real gardener-scheduler compares usage with its Quantity.Value() (a fraction rounded up, a number beyond
// int64 wrapped), and seedplan's greedy solver, reading such a seed from a garden, decides every shoot alike.
func TestGreedyMatchesGardenerSchedulerOnAllocatablesNotWhole(t *testing.T) {
	odd := []func(allocatable int64) string{
		func(a int64) string { return fmt.Sprintf("%dm", a*1000-1500) }, // a−1.5 shoots, read as a−1
		func(int64) string { return "-3" },                              // admits no shoot
		func(int64) string { return "1e30" },                            // Value() 0
		func(int64) string { return "9223372036854775808" },             // Value() −2^63
		func(int64) string { return "99999999999999999999999" },         // Value() 200376420520689663
	}
	for _, strategy := range []model.Strategy{model.SameRegion, model.MinimalDistance} {
		t.Run(string(strategy), func(t *testing.T) {
			objs, err := generator.Generate(generator.Config{Seeds: 20, Shoots: shoots, Existing: 60, Contention: 1.0, Seed: 80, Mix: generator.StressMix()})
			if err != nil {
				t.Fatal(err)
			}
			written := map[string]string{} // seed: its odd allocatable
			for i, seed := range objs.Seeds {
				q, ok := seed.Status.Allocatable[gardencorev1beta1.ResourceShoots]
				if !ok || i%(len(odd)+1) == len(odd) {
					continue
				}
				written[seed.Name] = odd[i%(len(odd)+1)](q.Value())
				seed.Status.Allocatable[gardencorev1beta1.ResourceShoots] = resource.MustParse(written[seed.Name])
			}
			ours, _ := compareDecisions(t, "", objs, strategy)
			onOdd := map[string]int{} // odd allocatable: shoots placed on its seeds
			for _, key := range ours.order {
				if w, ok := written[ours.decisions[key].seed]; ok {
					onOdd[w]++
				}
			}
			if len(written) < len(odd) || ours.reasons[model.PredicateCapacity] == 0 || len(onOdd) == 0 {
				t.Fatalf("seeds with an odd allocatable: %d; shoots placed on them, by allocatable: %v; unschedulable by Capacity: %d: "+
					"the landscape would not compare the capacity filter on them", len(written), onOdd, ours.reasons[model.PredicateCapacity])
			}
			t.Logf("%s: %d decisions identical; placed on seeds of odd allocatables: %v; unschedulable by: %v", strategy, len(ours.order), onOdd, ours.reasons)
		})
	}
}

// The gardener-apiserver validates no region's length, so a garden can hold regions longer than any the generator
// writes: the real gardener-scheduler computes every Levenshtein distance in full, seedplan only the band the
// fallback can choose from, and the greedy solver decides every shoot alike. Seeds' regions get tails of 300, 700
// and 1,100 characters, a third of the pending shoots' one of 250: distances from 100 to far beyond 1,000.
func TestGreedyMatchesGardenerSchedulerOnLongRegions(t *testing.T) {
	tail := func(n int) string { return strings.Repeat("x", n) }
	for _, strategy := range []model.Strategy{model.SameRegion, model.MinimalDistance} {
		t.Run(string(strategy), func(t *testing.T) {
			objs, err := generator.Generate(generator.Config{Seeds: 20, Shoots: shoots, Existing: 60, Contention: 1.0, Seed: 81, Mix: generator.StressMix()})
			if err != nil {
				t.Fatal(err)
			}
			long := map[string]bool{} // seeds of a long region
			for i, seed := range objs.Seeds {
				if n := []int{300, 700, 1100, 0}[i%4]; n > 0 {
					seed.Spec.Provider.Region += tail(n)
					long[seed.Name] = true
				}
			}
			for i, shoot := range objs.Shoots {
				if shoot.Spec.SeedName == nil && i%3 == 0 {
					shoot.Spec.Region += tail(250)
				}
			}
			ours, _ := compareDecisions(t, "", objs, strategy)
			onLong := 0
			for _, key := range ours.order {
				if long[ours.decisions[key].seed] {
					onLong++
				}
			}
			if strategy == model.MinimalDistance && onLong == 0 {
				t.Fatal("no shoot was placed on a seed of a long region: the landscape would not compare their distances")
			}
			t.Logf("%s: %d decisions identical; %d placed on seeds of long regions; unschedulable by: %v", strategy, len(ours.order), onLong, ours.reasons)
		})
	}
}

// The filters before the provider's leave no seed in the generated landscapes, whose shoots' selectors always match
// some seeds and whose seeds are never all unusable: here valid selectors match none — shoots' own, of several
// forms, and one cloud profile's — and, in a second landscape, every seed is cordoned. Gardener's messages print
// the selector and count the seeds entering the filter.
func TestGreedyMatchesGardenerSchedulerWhenAFilterLeavesNoSeed(t *testing.T) {
	matchingNone := []metav1.LabelSelector{
		{MatchLabels: map[string]string{"environment": "nowhere"}},
		{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "environment", Operator: metav1.LabelSelectorOpIn, Values: []string{"sandbox", "qa"}}}},
		{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "seedplan.io/tier", Operator: metav1.LabelSelectorOpExists}}},
		{MatchLabels: map[string]string{"environment": "prod", "zone-class": "gold"},
			MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "seed.gardener.cloud/deprecated", Operator: metav1.LabelSelectorOpDoesNotExist}}},
	}
	for _, strategy := range []model.Strategy{model.SameRegion, model.MinimalDistance} {
		t.Run(string(strategy), func(t *testing.T) {
			objs, err := generator.Generate(generator.Config{Seeds: 20, Shoots: shoots, Existing: 60, Contention: 0.8, Seed: 78, Mix: generator.StressMix()})
			if err != nil {
				t.Fatal(err)
			}
			for i, shoot := range objs.Shoots {
				if shoot.Spec.SeedName == nil && i%4 == 0 {
					shoot.Spec.SeedSelector = &gardencorev1beta1.SeedSelector{LabelSelector: matchingNone[i/4%len(matchingNone)]}
				}
			}
			for _, profile := range objs.CloudProfiles {
				if profile.Name == "gcp" { // its provider types, if any, kept
					if profile.Spec.SeedSelector == nil {
						profile.Spec.SeedSelector = &gardencorev1beta1.SeedSelector{}
					}
					profile.Spec.SeedSelector.LabelSelector = matchingNone[1]
				}
			}
			ours, _ := compareDecisions(t, "", objs, strategy)
			reasons := ours.reasons
			cordoned, err := generator.Generate(generator.Config{Seeds: 20, Shoots: 40, Existing: 60, Contention: 0.8, Seed: 79, Mix: generator.StressMix()})
			if err != nil {
				t.Fatal(err)
			}
			for _, seed := range cordoned.Seeds {
				seed.Spec.Settings = &gardencorev1beta1.SeedSettings{Scheduling: &gardencorev1beta1.SeedSettingScheduling{Visible: false}}
			}
			onCordoned, _ := compareDecisions(t, "cordoned seeds, ", cordoned, strategy)
			for reason, n := range onCordoned.reasons {
				reasons[reason] += n
			}
			requireDecidedBy(t, reasons, generatorUnreached())
			t.Logf("%s: decisions identical; unschedulable by: %v", strategy, reasons)
		})
	}
}

// A region ConfigMap entry that does not parse is Gardener's hard error for the shoots of its region, worded by the
// YAML decoder: seedplan's input budget leaves to that decoder an entry no parser reads, aliases and all (an unknown
// anchor, a flow left open after one), and the greedy solver decides every shoot alike, messages included. The
// generator writes only entries that parse; a garden can hold any string.
func TestGreedyMatchesGardenerSchedulerOnMalformedRegionEntries(t *testing.T) {
	malformed := []string{
		"eu-west-1: *nearest\n",
		"near: &near 1\neu-west-1: [*near\n",
		"near: &near 1\neu-west-1: *near\nfar: far: 9\n",
		"eu-west-1: [1]\n",
	}
	objs, err := generator.Generate(generator.Config{Seeds: 30, Shoots: shoots, Existing: 60, Contention: 0.8, Seed: 81, Mix: generator.StressMix()})
	if err != nil {
		t.Fatal(err)
	}
	written := writeConsultedRegionEntries(objs, malformed)
	ours, theirs := compareDecisions(t, "", objs, model.MinimalDistance)
	failed := map[int]int{} // entry: shoots failed by it
	for _, key := range ours.order {
		for _, entry := range written {
			if strings.HasPrefix(theirs[key].message, "failed to determine seed candidates. Wrong format in region ConfigMap "+entry.named+":") {
				failed[entry.kind]++
			}
		}
	}
	if len(failed) < len(malformed) {
		t.Fatalf("shoots failed by a malformed entry, by entry: %v (of %d kinds): the test would not compare every kind", failed, len(malformed))
	}
	t.Logf("%d decisions identical; failed by a malformed entry, by kind: %v; unschedulable by: %v", len(ours.order), failed, ours.reasons)
}

// Region ConfigMap entries that parse, but oddly — YAML 1.1's numbers (0x10, 010, 1_000), a key twice, a number
// beyond int64, comments alone, an empty map, negative distances, MaxInt32 (never chosen) — are read as the real
// gardener-scheduler reads them, and the greedy solver decides every shoot alike: a parser of YAML 1.2 would read
// 010 as 10, not 8, and decide differently.
func TestGreedyMatchesGardenerSchedulerOnOddRegionEntries(t *testing.T) {
	odd := []string{
		"# distances to follow\n", "{}\n", "eu-west-1: -5\neu-central-1: -5\n", "eu-west-1: 2147483647\n",
		"eu-west-1: 0x10\n", "eu-west-1: 1_000\n", "eu-west-1: 010\n", "eu-west-1: 1e3\n",
		"eu-west-1: 9223372036854775808\n", "eu-west-1: 5\neu-west-1: 7\n", "? eu-west-1\n", "eu-west-1: .inf\n",
		"eu-west-1: !!int 5\n", "eu-west-1: \"5\"\n", "eu-west-1: 5.0\n", "eu-west-1: ~\n",
	}
	objs, err := generator.Generate(generator.Config{Seeds: 30, Shoots: shoots, Existing: 60, Contention: 0.8, Seed: 90, Mix: generator.StressMix()})
	if err != nil {
		t.Fatal(err)
	}
	consulted := map[int]int{} // entry: pending shoots whose region's entry it is
	for _, entry := range writeConsultedRegionEntries(objs, odd) {
		consulted[entry.kind] += entry.consultedBy
	}
	ours, _ := compareDecisions(t, "", objs, model.MinimalDistance)
	for i := range odd {
		if consulted[i] == 0 {
			t.Errorf("no pending shoot is of a region given the entry %q: the test would not compare it", odd[i])
		}
	}
	t.Logf("%d decisions identical; unschedulable by: %v", len(ours.order), ours.reasons)
}

// writtenEntry is a region ConfigMap entry a test wrote: named as Gardener's message names it
// (`<namespace>/<name>, Region "<region>"`), the index of what was written among the test's kinds, and how many
// pending shoots consult it.
type writtenEntry struct {
	named       string
	kind        int
	consultedBy int
}

// writeConsultedRegionEntries writes the kinds of entries, one after another, over every region ConfigMap entry
// that pending shoots consult — of their region, in a ConfigMap naming their cloud profile — so that Gardener reads
// each kind; a test checks that every kind was consulted.
func writeConsultedRegionEntries(objs model.Objects, kinds []string) []writtenEntry {
	var written []writtenEntry
	for _, cm := range objs.ConfigMaps {
		profiles := strings.Split(cm.Annotations["scheduling.gardener.cloud/cloudprofiles"], ",")
		for _, region := range slices.Sorted(maps.Keys(cm.Data)) {
			users := 0
			for _, shoot := range objs.Shoots {
				profile := shoot.Spec.CloudProfile
				if shoot.Spec.SeedName == nil && shoot.Spec.Region == region && profile != nil && profile.Kind == "CloudProfile" &&
					slices.ContainsFunc(profiles, func(p string) bool { return strings.TrimSpace(p) == profile.Name }) {
					users++
				}
			}
			if users > 0 {
				kind := len(written) % len(kinds)
				cm.Data[region] = kinds[kind]
				written = append(written, writtenEntry{named: fmt.Sprintf("%s/%s, Region %q", cm.Namespace, cm.Name, region), kind: kind, consultedBy: users})
			}
		}
	}
	return written
}

// compareDecisions has the real gardener-scheduler and seedplan's greedy solver decide the landscape's pending
// shoots, fails the test, naming where (a prefix of the message), for each decision they differ on, and returns
// both sides' decisions.
func compareDecisions(t *testing.T, where string, objs model.Objects, strategy model.Strategy) (ours seedplanDecisions, theirs map[string]decision) {
	t.Helper()
	ours = decideWithSeedplan(t, objs, strategy)
	theirs = decideWithGardener(t, objs, strategy, ours.order)
	for _, key := range ours.order {
		if want, got := theirs[key], ours.decisions[key]; !got.matches(want) {
			t.Errorf("%sshoot %s:\n  gardener-scheduler: %s\n  seedplan greedy:    %s", where, key, want, got)
		}
	}
	return ours, theirs
}

// roundTrip writes the landscape as `seedplan generate` does, in the format given, and loads it as `--landscape` does.
func roundTrip(t *testing.T, objs model.Objects, format string) model.Objects {
	t.Helper()
	dir := t.TempDir()
	if _, err := generator.Write(dir, objs, format); err != nil {
		t.Fatal(err)
	}
	l, err := ingest.LoadPaths([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Warnings) > 0 {
		t.Fatalf("loading the generated landscape warned: %v", l.Warnings)
	}
	return l.Objects
}

type seedplanDecisions struct {
	order     []string
	decisions map[string]decision
	// reasons are the predicates that left shoots unschedulable, and how many each.
	reasons map[string]int
}

func decideWithSeedplan(t *testing.T, objs model.Objects, strategy model.Strategy) seedplanDecisions {
	t.Helper()
	snap, err := model.NewSnapshot(objs)
	if err != nil {
		t.Fatal(err)
	}
	pending := snap.Pending("default-scheduler")
	// As `seedplan schedule --solver greedy` plans: a plan model.Verify refuses is an error, not a decision.
	outcome, err := plan.Schedule(context.Background(), snap, pending, plan.Policy{Solver: solver.Greedy{}, Options: model.Options{Strategy: strategy}})
	if err != nil {
		t.Fatal(err)
	}
	out := seedplanDecisions{decisions: map[string]decision{}, reasons: map[string]int{}}
	for _, shoot := range pending {
		out.order = append(out.order, model.ShootKey(shoot))
	}
	for _, p := range outcome.Plan.Placements {
		out.decisions[p.Shoot] = decision{seed: p.Seed}
	}
	for _, u := range outcome.Plan.Unschedulable {
		out.decisions[u.Shoot] = decision{message: u.Message}
		out.reasons[u.Reason]++
	}
	return out
}

// decideWithGardener stores the landscape, defaulted as the gardener-apiserver would store it, in a
// controller-runtime fake client and reconciles the pending shoots one by one in the given order with the real
// gardener-scheduler reconciler.
func decideWithGardener(t *testing.T, objs model.Objects, strategy model.Strategy, order []string) map[string]decision {
	t.Helper()
	var stored []client.Object
	add := func(obj client.Object) {
		kubernetes.GardenScheme.Default(obj)
		stored = append(stored, obj)
	}
	for _, o := range objs.Seeds {
		add(o.DeepCopy())
	}
	for _, o := range objs.Shoots {
		add(o.DeepCopy())
	}
	for _, o := range objs.CloudProfiles {
		add(o.DeepCopy())
	}
	for _, o := range objs.NamespacedCloudProfiles {
		add(o.DeepCopy())
	}
	for _, o := range objs.Projects {
		add(o.DeepCopy())
	}
	for _, o := range objs.ConfigMaps {
		add(o.DeepCopy())
	}

	// Every reconcile lists all seeds and shoots; the fake client answers lists by a JSON round trip, which is far
	// too slow for 20,000 reconciles. The two lists are served from typed copies in the fake client's sort order
	// (namespace/name), kept up to date by the binding subresource.
	seeds := &gardencorev1beta1.SeedList{}
	shootList := &gardencorev1beta1.ShootList{}
	shootIndex := map[string]int{}
	for _, o := range stored {
		switch obj := o.(type) {
		case *gardencorev1beta1.Seed:
			seeds.Items = append(seeds.Items, *obj)
		case *gardencorev1beta1.Shoot:
			shootList.Items = append(shootList.Items, *obj)
		}
	}
	slices.SortFunc(seeds.Items, func(a, b gardencorev1beta1.Seed) int { return strings.Compare(a.Name, b.Name) })
	slices.SortFunc(shootList.Items, func(a, b gardencorev1beta1.Shoot) int {
		return strings.Compare(a.Namespace+"/"+a.Name, b.Namespace+"/"+b.Name)
	})
	for i, s := range shootList.Items {
		shootIndex[s.Namespace+"/"+s.Name] = i
	}

	c := fakeclient.NewClientBuilder().
		WithScheme(kubernetes.GardenScheme).
		WithIndex(&gardencorev1beta1.Project{}, gardencore.ProjectNamespace, indexer.ProjectNamespaceIndexerFunc).
		WithObjects(stored...).
		WithInterceptorFuncs(interceptor.Funcs{
			List: func(ctx context.Context, c client.WithWatch, list client.ObjectList, opts ...client.ListOption) error {
				switch l := list.(type) {
				case *gardencorev1beta1.SeedList:
					seeds.DeepCopyInto(l)
					return nil
				case *gardencorev1beta1.ShootList:
					shootList.DeepCopyInto(l)
					return nil
				}
				return c.List(ctx, list, opts...)
			},
			// The binding subresource writes spec.seedName, which a fake status update would drop.
			SubResourceUpdate: func(ctx context.Context, c client.Client, subResource string, obj client.Object, opts ...client.SubResourceUpdateOption) error {
				if subResource != "binding" {
					return c.SubResource(subResource).Update(ctx, obj, opts...)
				}
				if err := c.Update(ctx, obj); err != nil {
					return err
				}
				shoot := obj.(*gardencorev1beta1.Shoot)
				shootList.Items[shootIndex[shoot.Namespace+"/"+shoot.Name]].Spec.SeedName = shoot.Spec.SeedName
				return nil
			},
		}).
		Build()

	r := &shootscheduler.Reconciler{
		Client:          c,
		Config:          &schedulerconfigv1alpha1.ShootSchedulerConfiguration{Strategy: schedulerconfigv1alpha1.CandidateDeterminationStrategy(strategy)},
		GardenNamespace: "garden",
		Recorder:        &events.FakeRecorder{},
	}
	ctx := logf.IntoContext(context.Background(), logr.Discard())
	out := map[string]decision{}
	for _, key := range order {
		namespace, name, _ := strings.Cut(key, "/")
		_, err := r.Reconcile(ctx, reconcile.Request{NamespacedName: types.NamespacedName{Namespace: namespace, Name: name}})
		if err != nil {
			out[key] = decision{message: strings.TrimPrefix(err.Error(), "failed to determine seed for shoot: ")}
			continue
		}
		shoot := &gardencorev1beta1.Shoot{}
		if err := c.Get(ctx, types.NamespacedName{Namespace: namespace, Name: name}, shoot); err != nil {
			t.Fatal(err)
		}
		if shoot.Spec.SeedName == nil {
			t.Fatalf("shoot %s: reconcile succeeded without binding", key)
		}
		out[key] = decision{seed: *shoot.Spec.SeedName}
	}
	return out
}
