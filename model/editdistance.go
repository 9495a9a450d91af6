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
// computation of two regions of a megabyte each would take hours where the band takes a second.
func editDistance(a, b string) int {
	if len(a) <= validation.DNS1123SubdomainMaxLength && len(b) <= validation.DNS1123SubdomainMaxLength {
		return levenshtein.ComputeDistance(a, b)
	}
	return boundedEditDistance([]rune(a), []rune(b), fallbackEdits)
}

// boundedEditDistance is the Levenshtein distance of a and b when it is at most limit, else limit+1, computed
// only on the band of cells within limit of the diagonal (Ukkonen): O(limit × min(len(a), len(b))) time, and it
// stops early once a whole row is beyond the limit. What the two begin and end with alike is cut off first, as it
// never changes the distance: two long regions a few edits apart in one place cost only their comparison.
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
	if len(b)-len(a) > limit {
		return limit + 1
	}
	beyond := limit + 1
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = min(j, beyond)
	}
	for i := 1; i <= len(a); i++ {
		lo, hi := max(1, i-limit), min(len(b), i+limit)
		cur[lo-1] = beyond
		if lo == 1 {
			cur[0] = min(i, beyond)
		}
		rowMin := cur[lo-1]
		for j := lo; j <= hi; j++ {
			substitution := prev[j-1]
			if a[i-1] != b[j-1] {
				substitution++
			}
			d := min(substitution, prev[j]+1, cur[j-1]+1, beyond)
			cur[j] = d
			rowMin = min(rowMin, d)
		}
		if hi < len(b) {
			cur[hi+1] = beyond // outside this row's band: the next row reads it as the cell above
		}
		if rowMin >= beyond {
			return beyond
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
