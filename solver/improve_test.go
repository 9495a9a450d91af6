package solver

import (
	"context"
	"errors"
	"testing"
	"time"
)

// Improve starts on the window before its incumbent (the greedy assignment) comes, and needs it to finish: it
// waits for it, falls back on it when the budget runs out, and fails without it.
func TestImproveAwaitsItsIncumbent(t *testing.T) {
	seeds := []Seed{{Free: 2, Allocatable: 2, Limited: true}, {Free: 2, Allocatable: 2, Limited: true}}
	w := &Window{Seeds: seeds, Groups: []Group{{Candidates: []int{0, 1}, Arcs: []Arc{{Seed: 0}, {Seed: 1, Distance: 1}}}}, Shoots: make([]int, 2)}
	greedy, err := Greedy{}.Solve(context.Background(), w)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		// send hands the incumbent over (or not); cancel ends the context at once.
		send     func(chan<- *Assignment)
		cancel   bool
		deadline time.Time
		// weights are DefaultWeights unless set.
		weights  Weights
		fallback string
		err      error
	}{
		{name: "an incumbent that comes after the LP is done", send: func(c chan<- *Assignment) {
			time.Sleep(50 * time.Millisecond)
			c <- &greedy.Assignment
		}},
		{name: "a budget that runs out falls back on the incumbent", deadline: time.Now().Add(-time.Second), fallback: FallbackTimeout,
			send: func(c chan<- *Assignment) { c <- &greedy.Assignment }},
		{name: "costs beyond CLP's range fall back on the incumbent", weights: Weights{Distance: 1e30, Balance: 1, NominalCapacity: 100},
			fallback: FallbackRange, send: func(c chan<- *Assignment) { c <- &greedy.Assignment }},
		{name: "no incumbent is an error", send: func(c chan<- *Assignment) { c <- nil }, err: errNoIncumbent},
		{name: "an ended context is an error while the incumbent is awaited", send: func(chan<- *Assignment) {}, cancel: true, err: context.Canceled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.cancel {
				cancel()
			}
			incumbent := make(chan *Assignment, 1)
			go tc.send(incumbent)
			weights := tc.weights
			if weights == (Weights{}) {
				weights = DefaultWeights()
			}
			solution, err := LP{Weights: weights}.Improve(ctx, w, incumbent, tc.deadline)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("error %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if solution.Fallback != tc.fallback || solution.Greedy != &greedy.Assignment || solution.Placed() != 2 {
				t.Errorf("fallback %q, greedy %p (want %q, %p), %d placed", solution.Fallback, solution.Greedy, tc.fallback, &greedy.Assignment, solution.Placed())
			}
		})
	}
}
