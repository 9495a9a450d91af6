package model

import (
	"maps"
	"slices"
	"strconv"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// seedClasses group a snapshot's seeds by what the filters read of them, so that a shoot's inputs are judged once
// per class rather than once per seed, and a shoot's filter keys can say what its inputs decide rather than what
// they are: shoots whose tolerations differ but tolerate the same taints are one case.
type seedClasses struct {
	// labels numbers each seed's label set; seeds with equal labels share the number, labelSets[number].
	labels    map[*gardencorev1beta1.Seed]int
	labelSets []map[string]string
	// networks writes each seed's networks, those the networks filter reads.
	networks map[*gardencorev1beta1.Seed]string
	// taintLists are the distinct non-empty spec.taints lists, softTaints the distinct PreferNoSchedule keys.
	taintLists [][]gardencorev1beta1.SeedTaint
	softTaints []string
}

func newSeedClasses(seeds []*gardencorev1beta1.Seed, taints []SeedTaints) seedClasses {
	c := seedClasses{labels: make(map[*gardencorev1beta1.Seed]int, len(seeds)), networks: make(map[*gardencorev1beta1.Seed]string, len(seeds))}
	labelSets, taintLists := map[string]int{}, map[string]bool{}
	for i, seed := range seeds {
		key := labelsKey(seed.Labels)
		n, ok := labelSets[key]
		if !ok {
			n = len(labelSets)
			labelSets[key] = n
			c.labelSets = append(c.labelSets, seed.Labels)
		}
		c.labels[seed] = n
		c.networks[seed] = networksKey(seed.Spec.Networks)
		if list := taintListKey(seed.Spec.Taints); list != "" && !taintLists[list] {
			taintLists[list] = true
			c.taintLists = append(c.taintLists, seed.Spec.Taints)
		}
		c.softTaints = append(c.softTaints, taints[i].PreferNoSchedule...)
	}
	slices.Sort(c.softTaints)
	c.softTaints = slices.Compact(c.softTaints)
	return c
}

// labelsKey writes a label set in key order, each string after its length.
func labelsKey(labels map[string]string) string {
	return string(appendLabels(nil, labels))
}

// appendLabels appends labelsKey(labels) to b.
func appendLabels(b []byte, labels map[string]string) []byte {
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		b = appendString(appendString(b, k), labels[k])
	}
	return b
}

// appendString appends s after its length, so that no two lists of strings write the same.
func appendString(b []byte, s string) []byte {
	b = strconv.AppendInt(b, int64(len(s)), 10)
	b = append(b, ':')
	return append(b, s...)
}

// networksKey writes a seed's networks and shoot defaults.
func networksKey(n gardencorev1beta1.SeedNetworks) string {
	b := appendString(appendString(appendString(nil, nilMarked(n.Nodes)), n.Pods), n.Services)
	if d := n.ShootDefaults; d != nil {
		b = appendString(appendString(append(b, '+'), nilMarked(d.Pods)), nilMarked(d.Services))
	}
	return string(b)
}

// taintListKey writes a taint list in its order (Gardener's rule reads it whole).
func taintListKey(taints []gardencorev1beta1.SeedTaint) string {
	var b []byte
	for _, t := range taints {
		b = appendString(b, t.Key)
		if t.Value != nil {
			b = appendString(append(b, '='), *t.Value)
		}
		b = append(b, ';')
	}
	return string(b)
}

// appendToleratedTaints appends, for every distinct taint list of the seeds, whether the tolerations tolerate it:
// all that the tolerations filter decides with them.
func (c *seedClasses) appendToleratedTaints(b []byte, tolerations []gardencorev1beta1.Toleration) []byte {
	for _, list := range c.taintLists {
		b = append(b, bit(TaintsTolerated(list, tolerations)))
	}
	return b
}

// appendToleratedSoftTaints appends, for every soft taint key of the seeds, whether the tolerations tolerate it:
// all that the soft violations of a placement read of them.
func (c *seedClasses) appendToleratedSoftTaints(b []byte, tolerations []gardencorev1beta1.Toleration) []byte {
	for _, key := range c.softTaints {
		b = append(b, bit(TaintsTolerated([]gardencorev1beta1.SeedTaint{{Key: key}}, tolerations)))
	}
	return b
}

// bit writes a truth value as '1' or '0'.
func bit(ok bool) byte {
	if ok {
		return '1'
	}
	return '0'
}

// appendSelector appends a label selector: its labels in key order, then its expressions as given.
func appendSelector(b []byte, sel *metav1.LabelSelector) []byte {
	b = appendLabels(b, sel.MatchLabels)
	for _, e := range sel.MatchExpressions {
		b = appendString(appendString(append(b, '|'), e.Key), string(e.Operator))
		b = strconv.AppendInt(b, int64(len(e.Values)), 10)
		for _, v := range e.Values {
			b = appendString(b, v)
		}
	}
	return b
}
