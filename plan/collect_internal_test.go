package plan

import (
	"testing"
	"time"
)

// A collection may start once the heap has grown 70 % of the way from what the last cycle left to its goal.
func TestCollectionMayStart(t *testing.T) {
	const mb = 1 << 20
	for _, tc := range []struct {
		name                         string
		live, goal, heap, allocation uint64
		may                          bool
	}{
		{"a small solve just after a collection", 100 * mb, 200 * mb, 100 * mb, 4 * mb, false},
		{"a solve that reaches 70 % of the way", 100 * mb, 200 * mb, 100 * mb, 70 * mb, true},
		{"a solve that stops just short of it", 100 * mb, 200 * mb, 100 * mb, 70*mb - 1, false},
		{"a heap grown most of the way already", 100 * mb, 200 * mb, 168 * mb, 4 * mb, true},
		{"a cycle under way: the heap is past the start", 100 * mb, 200 * mb, 190 * mb, 0, true},
		{"the large live heap of a run loop's informers", 1000 * mb, 2000 * mb, 1010 * mb, 4 * mb, false},
		{"no room between live heap and goal", 100 * mb, 100 * mb, 100 * mb, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := collectionMayStart(tc.live, tc.goal, tc.heap, tc.allocation); got != tc.may {
				t.Errorf("collectionMayStart(live %d MB, goal %d MB, heap %d MB, allocation %d B) = %v, want %v",
					tc.live/mb, tc.goal/mb, tc.heap/mb, tc.allocation, got, tc.may)
			}
		})
	}
}

// A forced collection is worth its wait only when a cycle over the heap could be long beside the budget: at a
// gigabyte a second, more than a twentieth of it.
func TestCollectionMatters(t *testing.T) {
	const mb = 1 << 20
	for _, tc := range []struct {
		name    string
		heap    uint64
		budget  time.Duration
		matters bool
	}{
		{"a window of 1,000 shoots under the default budget", 11 * mb, 2 * time.Second, false},
		{"a window of 10,000 shoots under the default budget", 75 * mb, 2 * time.Second, false},
		{"a window of 50,000 shoots under the default budget", 400 * mb, 2 * time.Second, true},
		{"a window of 10,000 shoots under a tight budget", 75 * mb, 15 * time.Millisecond, true},
		{"just within a twentieth of the budget", 100 * mb, 2 * time.Second, false},
		{"just beyond it", 103 * mb, 2 * time.Second, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := collectionMatters(tc.heap, tc.budget); got != tc.matters {
				t.Errorf("collectionMatters(%d MB, %v) = %v, want %v", tc.heap/mb, tc.budget, got, tc.matters)
			}
		})
	}
}
