package solver

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The fair placement places, class by class in the order of priority and then of the oldest shoot, as many of
// each class's shoots as can be without displacing any placed before: on random windows short of room, the
// shoots placed of every prefix of that order are the maximum flow of the prefix, computed independently. Its
// placement keeps every class's count and every seed's room.
func TestFairPlacedIsLexicographicallyMaximal(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 19))
	for trial := range 300 {
		w := randomShortWindow(rng)
		classes := windowClasses(w)
		for _, comp := range splitComponents(classes, len(w.Seeds)) {
			placed, on := fairPlaced(w, classes, comp)
			checkFairPlacement(t, trial, w, classes, comp, placed, on)
			order := slices.Clone(comp.classes)
			position := map[int]int{}
			for i, c := range comp.classes {
				position[c] = i
			}
			slices.SortStableFunc(order, func(a, b int) int {
				return cmp.Or(cmp.Compare(classes[a].priority, classes[b].priority), cmp.Compare(classes[a].shoots[0], classes[b].shoots[0]))
			})
			sum := 0
			for k, c := range order {
				sum += placed[position[c]]
				if want := maxFlow(w, classes, order[:k+1]); sum != want {
					t.Fatalf("trial %d: the first %d classes place %d shoots, at most %d can be", trial, k+1, sum, want)
				}
			}
		}
	}
}

// randomShortWindow is a small window whose shoots mostly outnumber the room of the seeds they may use; a few
// seeds have no limit.
func randomShortWindow(rng *rand.Rand) *Window {
	w := &Window{}
	seeds := 2 + rng.IntN(12)
	for range seeds {
		free := rng.IntN(6)
		if rng.IntN(12) == 0 {
			free = Unlimited
		}
		w.Seeds = append(w.Seeds, Seed{Free: free, Allocatable: 10, Limited: free != Unlimited})
	}
	for g := range 2 + rng.IntN(9) {
		group := Group{Priority: rng.IntN(3)}
		for s := range seeds {
			if rng.IntN(3) == 0 {
				group.Arcs = append(group.Arcs, Arc{Seed: s, Distance: rng.IntN(4)})
			}
		}
		w.Groups = append(w.Groups, group)
		for range 1 + rng.IntN(12) {
			w.Shoots = append(w.Shoots, g)
		}
	}
	rng.Shuffle(len(w.Shoots), func(i, j int) { w.Shoots[i], w.Shoots[j] = w.Shoots[j], w.Shoots[i] })
	return w
}

// checkFairPlacement checks that each class's shoots on its arcs add up to its placed count, at most its
// shoots, and that no seed takes more than its room.
func checkFairPlacement(t *testing.T, trial int, w *Window, classes []class, comp component, placed []int, on [][]int) {
	t.Helper()
	taken := make([]int, len(w.Seeds))
	for i, c := range comp.classes {
		sum := 0
		for a, n := range on[i] {
			sum += n
			taken[classes[c].arcs[a].Seed] += n
		}
		if sum != placed[i] || placed[i] > len(classes[c].shoots) {
			t.Fatalf("trial %d: class %d has %d shoots on its arcs, %d placed of %d", trial, c, sum, placed[i], len(classes[c].shoots))
		}
	}
	for s, n := range taken {
		if free := w.Seeds[s].Free; free != Unlimited && n > free {
			t.Fatalf("trial %d: seed %d takes %d shoots, its room is %d", trial, s, n, free)
		}
	}
}

// maxFlow is the most shoots of the given classes that fit the seeds' room at once (Edmonds–Karp over source,
// classes, seeds and sink).
func maxFlow(w *Window, classes []class, of []int) int {
	const infinite = math.MaxInt / 4
	n := 2 + len(of) + len(w.Seeds)
	source, sink := 0, n-1
	capacity := make([][]int, n)
	for i := range capacity {
		capacity[i] = make([]int, n)
	}
	for i, c := range of {
		capacity[source][1+i] = len(classes[c].shoots)
		for _, a := range classes[c].arcs {
			capacity[1+i][1+len(of)+a.Seed] = infinite
		}
	}
	for s, seed := range w.Seeds {
		capacity[1+len(of)+s][sink] = seed.Free
		if seed.Free == Unlimited {
			capacity[1+len(of)+s][sink] = infinite
		}
	}
	total := 0
	for {
		previous := make([]int, n)
		for i := range previous {
			previous[i] = -1
		}
		previous[source] = source
		for queue := []int{source}; len(queue) > 0 && previous[sink] < 0; queue = queue[1:] {
			for v := range n {
				if previous[v] < 0 && capacity[queue[0]][v] > 0 {
					previous[v] = queue[0]
					queue = append(queue, v)
				}
			}
		}
		if previous[sink] < 0 {
			return total
		}
		amount := infinite
		for v := sink; v != source; v = previous[v] {
			amount = min(amount, capacity[previous[v]][v])
		}
		for v := sink; v != source; v = previous[v] {
			capacity[previous[v]][v] -= amount
			capacity[v][previous[v]] += amount
		}
		total += amount
	}
}

// Shrinking a seed's room keeps a maximum flow maximum exactly when it says so: on random windows, after every
// shrink that succeeds the flow places as many shoots as before, which is the independent maximum flow of the
// smaller room; a shrink that fails is one after which the maximum is smaller, and the saved flow restored is
// the flow before it. The placement keeps every class's count and every seed's room throughout.
func TestFlowShrink(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 23))
	for trial := range 300 {
		w := randomShortWindow(rng)
		classes := windowClasses(w)
		all := everyClass(len(classes))
		f := newFlow(w.free(), classes, all)
		placed := 0
		for c := range classes {
			placed += f.place(c, len(classes[c].shoots))
		}
		for range 6 {
			seed, amount := rng.IntN(len(w.Seeds)), 1+rng.IntN(4)
			if w.Seeds[seed].Free == Unlimited {
				continue
			}
			saved, before := f.save(), f.save() // restore takes saved's slices; before stays as the flow was
			free := w.Seeds[seed].Free
			w.Seeds[seed].Free = max(free-amount, 0)
			want := maxFlow(w, classes, all.classes)
			if ok := f.shrink(seed, amount); ok != (want == placed) {
				t.Fatalf("trial %d: shrinking seed %d by %d says %v; the maximum flow goes from %d to %d", trial, seed, amount, ok, placed, want)
			} else if ok {
				if total(f.placed) != placed {
					t.Fatalf("trial %d: %d shoots placed after shrinking, %d before", trial, total(f.placed), placed)
				}
				checkFairPlacement(t, trial, w, classes, all, f.placed, f.on)
				continue
			}
			f.restore(saved)
			w.Seeds[seed].Free = free
			if !slices.Equal(f.placed, before.placed) || !slices.Equal(f.room, before.room) || !slices.EqualFunc(f.on, before.on, slices.Equal) {
				t.Fatalf("trial %d: the restored flow differs from the saved one", trial)
			}
			checkFairPlacement(t, trial, w, classes, all, f.placed, f.on)
		}
	}
}
