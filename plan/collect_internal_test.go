package plan

import "testing"

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
