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

// NetworkConflicts returns "" when the shoot's networks may be placed on the seed, otherwise Gardener's reason
// "invalid networks: [...]" (spec §2.10a). The shoot's pods and services default to the seed's shootDefaults when
// unset and of an IP family the shoot uses. IPv6 shoot networks must not intersect the seed's networks; IPv4 ones
// may, unless strict is set; no network may intersect Gardener's reserved ranges. status.networking, when set, is
// checked the same way and must list services (and pods, for shoots with workers).
func NetworkConflicts(seed *gardencorev1beta1.Seed, shoot *gardencorev1beta1.Shoot, strict bool) string {
	var (
		networking = shoot.Spec.Networking
		pods       = networking.Pods
		services   = networking.Services
		workerless = len(shoot.Spec.Provider.Workers) == 0
		seedNets   = seed.Spec.Networks
		messages   []string
	)
	if defaults := seedNets.ShootDefaults; defaults != nil {
		if pods == nil && !workerless && defaults.Pods != nil && familyEnabled(*defaults.Pods, networking.IPFamilies) {
			pods = defaults.Pods
		}
		if services == nil && defaults.Services != nil && familyEnabled(*defaults.Services, networking.IPFamilies) {
			services = defaults.Services
		}
	}

	check := func(path string, networks []string, kind string, required bool) {
		fldPath := field.NewPath("").Child(path)
		for _, network := range networks {
			for _, conflict := range seedNetworkConflicts(network, kind, seedNets, strict) {
				messages = append(messages, field.Invalid(fldPath, network, conflict).ErrorBody())
			}
			for _, r := range reservedRanges {
				if NetworksIntersect(r.cidr, network) {
					messages = append(messages, field.Invalid(fldPath, network, fmt.Sprintf("%s network intersects with %s (%s)", kind, r.description, r.cidr)).ErrorBody())
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

// seedNetworkConflicts lists the seed networks an (IPv6, or with strict any) shoot network intersects.
func seedNetworkConflicts(network, kind string, seedNets gardencorev1beta1.SeedNetworks, strict bool) []string {
	if !strict && !isIPv6(network) {
		return nil
	}
	var conflicts []string
	if NetworksIntersect(seedNets.Services, network) {
		conflicts = append(conflicts, fmt.Sprintf("shoot %s network intersects with seed service network", kind))
	}
	if NetworksIntersect(seedNets.Pods, network) {
		conflicts = append(conflicts, fmt.Sprintf("shoot %s network intersects with seed pod network", kind))
	}
	if seedNets.Nodes != nil && NetworksIntersect(*seedNets.Nodes, network) {
		conflicts = append(conflicts, fmt.Sprintf("shoot %s network intersects with seed node network", kind))
	}
	return conflicts
}

// NetworksIntersect reports whether one network contains the other's base address. As in Gardener, a CIDR that
// does not parse counts as intersecting everything.
func NetworksIntersect(a, b string) bool {
	_, netA, errA := net.ParseCIDR(a)
	_, netB, errB := net.ParseCIDR(b)
	if errA != nil || errB != nil {
		return true
	}
	return netA.Contains(netB.IP) || netB.Contains(netA.IP)
}

func isIPv6(cidr string) bool {
	_, n, err := net.ParseCIDR(cidr)
	return err == nil && n.IP.To4() == nil
}

func isIPv4(cidr string) bool {
	_, n, err := net.ParseCIDR(cidr)
	return err == nil && n.IP.To4() != nil
}

func familyEnabled(cidr string, families []gardencorev1beta1.IPFamily) bool {
	return (isIPv6(cidr) && slices.Contains(families, gardencorev1beta1.IPFamilyIPv6)) ||
		(isIPv4(cidr) && slices.Contains(families, gardencorev1beta1.IPFamilyIPv4))
}

func optional(s *string) []string {
	if s == nil {
		return nil
	}
	return []string{*s}
}
