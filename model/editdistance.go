package model

import (
	"github.com/agnivade/levenshtein"
	"k8s.io/apimachinery/pkg/util/validation"
)

// fallbackEdits is the most edits between two region bases that the Levenshtein fallback can ever choose: its
// distance is at least twice the edits, and distances above levenshteinLimit are never chosen.
const fallbackEdits = levenshteinLimit / 2

// editDistance is the Levenshtein distance of two region bases, rune-wise, exact up to fallbackEdits and
// fallbackEdits+1 beyond: no strategy tells farther regions apart. Regions of a file are region ConfigMap keys at
// most (ingest refuses longer ones), whose distance is never beyond; a garden's are not bounded, and the full
// computation of two regions of a megabyte each would take hours, where following the diagonals within the limit
// compares each rune of the shorter at most once a diagonal.
func editDistance(a, b string) int {
	if len(a) <= validation.DNS1123SubdomainMaxLength && len(b) <= validation.DNS1123SubdomainMaxLength {
		return levenshtein.ComputeDistance(a, b)
	}
	return boundedEditDistance([]rune(a), []rune(b), fallbackEdits)
}

// boundedEditDistance is the Levenshtein distance of a and b when it is at most limit, else limit+1. It follows
// each diagonal of the edit matrix as far as it runs with e edits, for e = 0, 1, … up to limit (Ukkonen's diagonal
// transition): a diagonal is followed cell by cell only while the two agree, so two long strings a few hundred
// edits apart cost little more than their comparison, and never more than the band of cells within limit of the
// diagonal would, O(limit × min(len(a), len(b))). What the two begin and end with alike is cut off first.
func boundedEditDistance(a, b []rune, limit int) int {
	for len(a) > 0 && len(b) > 0 && a[0] == b[0] {
		a, b = a[1:], b[1:]
	}
	for len(a) > 0 && len(b) > 0 && a[len(a)-1] == b[len(b)-1] {
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	n, m := len(a), len(b)
	if m-n > limit {
		return limit + 1
	}
	// furthest[limit+1+d] is how far down diagonal d (the cells (i, i+d)) e edits reach, as a row i; last is e-1's.
	// Diagonals beyond ±e are not reached: unreached, which no step makes reached.
	const unreached = -1 << 40
	furthest, last := make([]int, 2*limit+3), make([]int, 2*limit+3)
	for i := range last {
		furthest[i], last[i] = unreached, unreached
	}
	for e := 0; e <= limit; e++ {
		for d := max(-e, -n); d <= min(e, m); d++ {
			k := limit + 1 + d
			i := 0
			if e > 0 {
				// A substitution or a deletion from a steps down a row; an insertion into a does not.
				i = min(max(last[k]+1, last[k+1]+1, last[k-1]), n, m-d)
			}
			for i < n && i+d < m && a[i] == b[i+d] {
				i++
			}
			furthest[k] = i
		}
		if furthest[limit+1+m-n] >= n {
			return e
		}
		furthest, last = last, furthest
		for d := max(-e, -n); d <= min(e, m); d++ {
			furthest[limit+1+d] = unreached // the row for e+1 starts from nothing but last
		}
	}
	return limit + 1
}
