package model

import (
	"fmt"
	"net"
	"slices"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	v1beta1constants "github.com/gardener/gardener/pkg/apis/core/v1beta1/constants"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// reservedRanges are the ranges no shoot network may touch, with the words Gardener uses for them (spec §2.10a).
var reservedRanges = []struct{ cidr, description string }{
	{v1beta1constants.DefaultVPNRangeV6, "default vpn network"},
	{v1beta1constants.ReservedKubeApiServerMappingRange, "reserved kube-apiserver mapping range"},
	{v1beta1constants.ReservedSeedPodNetworkMappedRange, "reserved seed pod network mapping range"},
	{v1beta1constants.ReservedShootNodeNetworkMappedRange, "reserved shoot node network mapping range"},
	{v1beta1constants.ReservedShootServiceNetworkMappedRange, "reserved shoot service network mapping range"},
	{v1beta1constants.ReservedShootPodNetworkMappedRange, "reserved shoot pod network mapping range"},
}

// namedNetwork is a network with the words Gardener names it by.
type namedNetwork struct {
	net  cidr
	name string
}

// reservedNetworks are reservedRanges parsed, once.
var reservedNetworks = func() []namedNetwork {
	parsed := make([]namedNetwork, len(reservedRanges))
	for i, r := range reservedRanges {
		parsed[i] = namedNetwork{parseCIDR(r.cidr), r.description}
	}
	return parsed
}()

// NetworkConflicts returns "" when the shoot's networks may be placed on the seed, otherwise Gardener's reason
// "invalid networks: [...]" (spec §2.10a). The shoot's pods and services default to the seed's shootDefaults when
// unset and of an IP family the shoot uses. IPv6 shoot networks must not intersect the seed's networks; IPv4 ones
// may, unless strict is set; no network may intersect Gardener's reserved ranges. status.networking, when set, is
// checked the same way and must list services (and pods, for shoots with workers).
func NetworkConflicts(seed *gardencorev1beta1.Seed, shoot *gardencorev1beta1.Shoot, strict bool) string {
	return networkConflicts(&seed.Spec.Networks, shoot, strict)
}

// networkConflicts is NetworkConflicts for a seed's networks, or with seedNets nil for the shoot's own networks
// against the reserved ranges only.
func networkConflicts(seedNets *gardencorev1beta1.SeedNetworks, shoot *gardencorev1beta1.Shoot, strict bool) string {
	var (
		networking = shoot.Spec.Networking
		pods       = networking.Pods
		services   = networking.Services
		workerless = len(shoot.Spec.Provider.Workers) == 0
		messages   []string
	)
	// Every network is parsed once per call, not once per comparison.
	var seedNetworks []namedNetwork
	if seedNets != nil {
		if defaults := seedNets.ShootDefaults; defaults != nil {
			if pods == nil && !workerless && defaults.Pods != nil && familyEnabled(*defaults.Pods, networking.IPFamilies) {
				pods = defaults.Pods
			}
			if services == nil && defaults.Services != nil && familyEnabled(*defaults.Services, networking.IPFamilies) {
				services = defaults.Services
			}
		}
		seedNetworks = []namedNetwork{{parseCIDR(seedNets.Services), "seed service network"}, {parseCIDR(seedNets.Pods), "seed pod network"}}
		if seedNets.Nodes != nil {
			seedNetworks = append(seedNetworks, namedNetwork{parseCIDR(*seedNets.Nodes), "seed node network"})
		}
	}
	check := func(path string, networks []string, kind string, required bool) {
		fldPath := field.NewPath("").Child(path)
		for _, network := range networks {
			shootNet := parseCIDR(network)
			if strict || shootNet.isIPv6() {
				for _, seedNet := range seedNetworks {
					if seedNet.net.intersects(shootNet) {
						messages = append(messages, field.Invalid(fldPath, network, fmt.Sprintf("shoot %s network intersects with %s", kind, seedNet.name)).ErrorBody())
					}
				}
			}
			for _, r := range reservedNetworks {
				if r.net.intersects(shootNet) {
					messages = append(messages, field.Invalid(fldPath, network, fmt.Sprintf("%s network intersects with %s (%s)", kind, r.name, r.net.text)).ErrorBody())
				}
			}
		}
		if len(networks) == 0 && required {
			messages = append(messages, field.Required(fldPath, kind+"s is required").ErrorBody())
		}
	}
	check("nodes", optional(networking.Nodes), "node", false)
	check("services", optional(services), "service", false)
	check("pods", optional(pods), "pod", false)
	if status := shoot.Status.Networking; status != nil {
		check("nodes", status.Nodes, "node", false)
		check("services", status.Services, "service", true)
		check("pods", status.Pods, "pod", !workerless)
	}

	if len(messages) == 0 {
		return ""
	}
	return fmt.Sprintf("invalid networks: %s", messages)
}

// OwnNetworkConflicts is NetworkConflicts for what no seed changes: the shoot's own networks, of its spec and its
// status, against Gardener's reserved ranges, and the status networks it must list. "" when there are none; a
// shoot with one is taken by no seed at all, of any kind.
func OwnNetworkConflicts(shoot *gardencorev1beta1.Shoot) string {
	if shoot.Spec.Networking == nil {
		return ""
	}
	return networkConflicts(nil, shoot, false)
}

// cidr is a network as written and, when it parses, as a network.
type cidr struct {
	text string
	net  *net.IPNet
}

func parseCIDR(text string) cidr {
	_, n, err := net.ParseCIDR(text)
	if err != nil {
		return cidr{text: text}
	}
	return cidr{text: text, net: n}
}

// intersects reports whether one network contains the other's base address. As in Gardener, a network that does
// not parse intersects every other.
func (a cidr) intersects(b cidr) bool {
	if a.net == nil || b.net == nil {
		return true
	}
	return a.net.Contains(b.net.IP) || b.net.Contains(a.net.IP)
}

func (a cidr) isIPv6() bool { return a.net != nil && a.net.IP.To4() == nil }

func (a cidr) isIPv4() bool { return a.net != nil && a.net.IP.To4() != nil }

func familyEnabled(text string, families []gardencorev1beta1.IPFamily) bool {
	c := parseCIDR(text)
	return (c.isIPv6() && slices.Contains(families, gardencorev1beta1.IPFamilyIPv6)) ||
		(c.isIPv4() && slices.Contains(families, gardencorev1beta1.IPFamilyIPv4))
}

func optional(s *string) []string {
	if s == nil {
		return nil
	}
	return []string{*s}
}
