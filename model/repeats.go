package model

import "iter"

// Repeats yields, for every value listed before, its index and the index it was first listed at: the one test of
// the lists an operator gives (seeds to drain or cordon, triggers, purposes, a reviewed plan's shoots) for a value
// given twice, which is mostly a slip for another value that is then missing.
func Repeats[T comparable](values []T) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		first := make(map[T]int, len(values))
		for i, value := range values {
			if j, seen := first[value]; seen {
				if !yield(i, j) {
					return
				}
				continue
			}
			first[value] = i
		}
	}
}
