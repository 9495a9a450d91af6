package solver

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/lanl/clp"
)

// LP places a window globally: shoots that the scheduler cannot tell apart form classes, and the classes and
// seeds form a transportation problem — which shoots of each class are placed is fixed first (fairPlaced: as
// many as can be, the fairest among those), no seed takes more than its free capacity, and every placement costs
// its weighted region distance plus a convex piecewise-linear utilization cost of its seed, and a penalty larger
// than any of those when it ends its seed above the target. Parts of the window
// that share no seed are solved separately and concurrently by COIN-OR CLP. The greedy plan is computed first;
// it is returned (with Solution.Fallback set) when CLP does not finish within Timeout or places fewer shoots.
type LP struct {
	Weights Weights
	// Timeout bounds the whole solve; 0 means no limit.
	Timeout time.Duration
}

// Name implements Solver.
func (LP) Name() string { return "lp" }

// Fallback reasons: the LP ran out of time, placed fewer shoots than greedy, or its costs were beyond CLP's range.
const (
	FallbackTimeout = "timeout"
	FallbackWorse   = "worse"
	FallbackRange   = "range"
)

// FallbackReasons are every reason a Solution's Fallback may give.
func FallbackReasons() []string { return []string{FallbackTimeout, FallbackWorse, FallbackRange} }

// integralityTolerance is how far from an integer a CLP value may be and still count as integral.
const integralityTolerance = 1e-6

// class is a set of interchangeable shoots, in window order.
type class struct {
	shoots   []int
	arcs     []Arc // usable arcs, cheapest first
	priority int   // of its group
}

// component is a part of the window that shares no seed with any other part.
type component struct {
	classes []int
	seeds   []int
}

// everyClass is the component of all n classes, without its seeds: for a flow over the whole question.
func everyClass(n int) component {
	all := component{classes: make([]int, n)}
	for c := range all.classes {
		all.classes[c] = c
	}
	return all
}

// componentResult holds, per class of the component and per usable arc of the class, how many shoots go there.
type componentResult struct {
	counts    [][]float64
	objective float64
	optimal   bool
	// stopped is set when CLP ran out of its time budget.
	stopped bool
	err     error
}

// Budget implements Budgeted.
func (lp LP) Budget() Budget { return Budget{Timeout: lp.Timeout} }

// Solve implements Solver. Greedy runs first, alone (it is cheap, and the incumbent), within the budget; then
// Improve.
func (lp LP) Solve(ctx context.Context, w *Window) (*Solution, error) {
	deadline := lp.Budget().Deadline()
	assignment, err := greedy(ctx, w, true)
	if err != nil {
		return nil, err
	}
	incumbent := make(chan *Assignment, 1)
	incumbent <- assignment
	return lp.Improve(ctx, w, incumbent, deadline)
}

// Improve implements Improver: the LP, abandoned at the deadline in favour of the greedy assignment. The LP
// starts at once, with one processor fewer until the greedy assignment comes.
func (lp LP) Improve(ctx context.Context, w *Window, incumbent <-chan *Assignment, deadline time.Time) (*Solution, error) {
	// As many parts at once as there are processors, but for the greedy assignment's while it is being made. One
	// fewer once kept a processor free for the caller at the deadline; since the deadline comes through the
	// network poller, and a garbage collection that could be long beside the budget runs before the solve
	// (plan.Schedule), the caller is back a median of under a millisecond after it either way
	// (BenchmarkTimeoutFallback), and the parts of a MinimalDistance window take a quarter less time.
	slots := processorSlots()
	slots <- struct{}{}
	var greedy *Assignment
	came := make(chan struct{})
	go func() {
		defer close(came)
		select {
		case greedy = <-incumbent:
		case <-ctx.Done():
		}
		<-slots
	}()
	lpDone := make(chan lpResult, 1)
	go func() { lpDone <- lp.run(w, deadline, slots) }()

	timeout, release := deadlineReached(deadline)
	defer release()
	var result lpResult
	select {
	case result = <-lpDone:
		// A plan that arrives after the deadline (its signal not yet seen) is too late all the same.
		result.stopped = result.stopped || result.err == nil && !deadline.IsZero() && time.Now().After(deadline)
	case <-timeout:
		// CLP cannot be interrupted; its CPU budget (set per model) ends the abandoned solves.
		result.stopped = true
	case <-ctx.Done():
		return nil, fmt.Errorf("lp: %w", ctx.Err())
	}
	<-came
	switch {
	case ctx.Err() != nil:
		return nil, fmt.Errorf("lp: %w", ctx.Err())
	case greedy == nil:
		return nil, errNoIncumbent
	case result.stopped:
		return &Solution{Assignment: *greedy, Greedy: greedy, Fallback: FallbackTimeout}, nil
	case errors.Is(result.err, ErrCostRange):
		return &Solution{Assignment: *greedy, Greedy: greedy, Fallback: FallbackRange}, nil
	case result.err != nil:
		return nil, result.err
	case result.plan.Placed() < greedy.Placed():
		return &Solution{Assignment: *greedy, Greedy: greedy, Fallback: FallbackWorse}, nil
	}
	return &Solution{Assignment: *result.plan, Greedy: greedy, Optimal: result.optimal}, nil
}

// errNoIncumbent is Improve's error when its caller could not make the greedy assignment.
var errNoIncumbent = errors.New("lp: no greedy assignment to fall back on")

// lpResult is what the LP of a window came to: its assignment, or that it stopped at the deadline or failed.
type lpResult struct {
	plan             *Assignment
	optimal, stopped bool
	err              error
}

// run solves the window's LP, its independent parts at once, each on a slot it takes from slots.
func (lp LP) run(w *Window, deadline time.Time, slots chan struct{}) lpResult {
	classes := windowClasses(w)
	components := splitComponents(classes, len(w.Seeds))
	segments := seedSegments(w, lp.Weights)
	extremes := windowArcExtremes(w)
	results := make([]componentResult, len(components))
	onSlots(slots, len(components), func(i int) {
		if !deadline.IsZero() && time.Now().After(deadline) {
			// Abandoned: building the part would only take a processor from the caller.
			results[i] = componentResult{stopped: true}
			return
		}
		comp := components[i]
		placed, fair := fairPlaced(w, classes, comp)
		results[i] = lp.solveComponent(w, classes, comp, segments, extremes, deadline, placed, fair, startArcs(classes, comp))
	})
	optimal := true
	for _, r := range results {
		if r.stopped || r.err != nil {
			return lpResult{stopped: r.stopped, err: r.err}
		}
		optimal = optimal && r.optimal
	}
	plan, integral := assemble(w, classes, components, results)
	return lpResult{plan: plan, optimal: optimal && integral}
}

// processorSlots are slots (onSlots) for as many goroutines at once as there are processors.
func processorSlots() chan struct{} { return make(chan struct{}, runtime.GOMAXPROCS(0)) }

// onSlots calls do(i) for every i below n, each on a goroutine of its own once it has taken one of slots, which it
// gives back when done; they start in order of i. It returns when all are done.
func onSlots(slots chan struct{}, n int, do func(i int)) {
	var wg sync.WaitGroup
	for i := range n {
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			do(i)
		})
	}
	wg.Wait()
}

// windowClasses are the classes of a window: its usable arcs are the seeds with free capacity.
func windowClasses(w *Window) []class {
	return buildClasses(w, func(a Arc) bool { return w.Seeds[a.Seed].Free != 0 })
}

// buildClasses groups the window's shoots into classes of interchangeable shoots — the same usable arcs at the
// same distances — and orders each class's arcs cheapest first, so that the earliest shoots of a class get its
// cheapest seeds. usable says which arcs count.
func buildClasses(w *Window, usable func(Arc) bool) []class {
	byGroup := make([]int, len(w.Groups))
	for g := range byGroup {
		byGroup[g] = -1
	}
	var grouper arcGrouper
	var classes []class
	var arcs []Arc
	for i, g := range w.Shoots {
		c := byGroup[g]
		if c < 0 {
			arcs = arcs[:0]
			if group := &w.Groups[g]; group.Exclusion == NotExcluded {
				for _, a := range group.Arcs {
					if usable(a) {
						arcs = append(arcs, a)
					}
				}
			}
			var kept []Arc
			priority := w.Groups[g].Priority
			if c, kept = grouper.group(priority, arcs); kept != nil {
				classes = append(classes, class{arcs: kept, priority: priority})
			}
			byGroup[g] = c
		}
		classes[c].shoots = append(classes[c].shoots, i)
	}
	return classes
}

// arcGrouper numbers lists of arcs, first seen first: equal lists under the same tag get the same number. Most
// lists repeat an earlier one, so each is keyed in scratch and only a new one is copied.
type arcGrouper struct {
	numbers map[string]int
	key     []byte
	order   []uint64 // cheapestFirst's scratch
}

// group returns the number of the list of arcs under tag, and for a list not seen before a copy of it to keep
// (nil otherwise), sorted cheapest first: soft violations, then distance, equal ones in their seed order. arcs
// is the caller's scratch, ascending by seed: so a list is keyed as it comes, and only a new one is sorted.
func (g *arcGrouper) group(tag int, arcs []Arc) (int, []Arc) {
	// Varints delimit themselves: the key is the numbers one after another.
	g.key = binary.AppendVarint(g.key[:0], int64(tag))
	for _, a := range arcs {
		g.key = binary.AppendVarint(g.key, int64(a.Seed))
		g.key = binary.AppendVarint(g.key, int64(a.Distance))
		g.key = binary.AppendVarint(g.key, int64(a.SoftViolations))
	}
	if n, ok := g.numbers[string(g.key)]; ok {
		return n, nil
	}
	if g.numbers == nil {
		g.numbers = map[string]int{}
	}
	n := len(g.numbers)
	g.numbers[string(g.key)] = n
	return n, g.cheapestFirst(arcs)
}

// cheapestFirst is a copy of arcs (ascending by seed) sorted by soft violations, then distance, equal ones in
// their seed order. Each arc's soft violations, distance and position are packed into one number, whose order
// is the wanted one, so the sort compares numbers instead of calling a comparison; arcs whose figures do not
// fit are sorted by the comparison.
func (g *arcGrouper) cheapestFirst(arcs []Arc) []Arc {
	kept := make([]Arc, len(arcs))
	g.order = g.order[:0]
	for i, a := range arcs {
		if a.SoftViolations < 0 || a.SoftViolations >= 1<<15 || a.Distance < 0 || a.Distance >= 1<<24 || i >= 1<<24 {
			copy(kept, arcs)
			slices.SortFunc(kept, func(a, b Arc) int {
				return cmp.Or(cmp.Compare(a.SoftViolations, b.SoftViolations), cmp.Compare(a.Distance, b.Distance), cmp.Compare(a.Seed, b.Seed))
			})
			return kept
		}
		g.order = append(g.order, uint64(a.SoftViolations)<<48|uint64(a.Distance)<<24|uint64(i))
	}
	slices.Sort(g.order)
	for i, packed := range g.order {
		kept[i] = arcs[packed&(1<<24-1)]
	}
	return kept
}

// splitComponents finds the connected parts of the class–seed graph; classes without arcs belong to none.
func splitComponents(classes []class, seeds int) []component {
	parent := make([]int, len(classes)+seeds)
	for i := range parent {
		parent[i] = i
	}
	find := func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	for c, cl := range classes {
		for _, a := range cl.arcs {
			if rc, rs := find(c), find(len(classes)+a.Seed); rc != rs {
				parent[max(rc, rs)] = min(rc, rs)
			}
		}
	}
	byRoot := map[int]int{}
	var components []component
	for c, cl := range classes {
		if len(cl.arcs) == 0 {
			continue
		}
		root := find(c)
		i, ok := byRoot[root]
		if !ok {
			i = len(components)
			byRoot[root] = i
			components = append(components, component{})
		}
		components[i].classes = append(components[i].classes, c)
	}
	for s := range seeds {
		if i, ok := byRoot[find(len(classes)+s)]; ok {
			components[i].seeds = append(components[i].seeds, s)
		}
	}
	return components
}

// solveComponent builds and solves the transportation LP of one component for where the shoots go that placed
// says, per class (by position in comp.classes), are placed: those a fair plan places (fairPlaced, which also
// gives a placement of them, fair), which are as many as can be — all of them when every shoot fits.
//
// Most of a class's arcs are too far to be worth taking, and the LP's time grows with its columns, so a large
// component is solved by pricing: it starts with each class's start cheapest arcs and those of the fair placement
// (which keep it feasible), then takes in every other arc whose reduced cost under the optimum's duals is
// negative, and solves again, until no arc is left that could lower the cost. Then its optimum is the optimum over
// all arcs. A small one starts with all of them (startArcs), and the first solve is the last.
func (lp LP) solveComponent(w *Window, classes []class, comp component, segments [][]segment, extremes arcExtremes, deadline time.Time, placed []int, fair [][]int, start int) componentResult {
	m := lp.componentModel(w, classes, comp, segments, extremes)
	included := make([][]bool, len(comp.classes))
	for i, c := range comp.classes {
		included[i] = make([]bool, len(classes[c].arcs))
		for a := range included[i] {
			included[i][a] = a < start || fair[i][a] > 0
		}
	}
	for {
		prog, columns := m.program(placed, included)
		solution, err := prog.solve(deadline, fmt.Sprintf("a part of %d classes and %d seeds", len(comp.classes), len(comp.seeds)))
		switch {
		case err != nil:
			return componentResult{err: fmt.Errorf("lp: %w", err)}
		case solution.status == lpStopped:
			return componentResult{stopped: true}
		case solution.status != lpOptimal:
			// Never: the shoots to place are a flow within every seed's room, which its segments hold.
			return componentResult{err: fmt.Errorf("lp: infeasible on a part of %d classes and %d seeds", len(comp.classes), len(comp.seeds))}
		}
		if m.price(solution.duals, included) > 0 {
			continue
		}
		result := componentResult{counts: make([][]float64, len(comp.classes)), objective: solution.objective, optimal: true}
		for i := range comp.classes {
			result.counts[i] = make([]float64, len(included[i]))
		}
		for col, arc := range columns {
			result.counts[arc.class][arc.arc] = solution.values[col]
		}
		return result
	}
}

// pricedFrom is how many of its cheapest arcs each class starts the LP with; pricing brings in the others that
// pay. In MinimalDistance windows of 500 seeds classes have about 80 arcs, of which the optimum uses a few.
const pricedFrom = 8

// wholeUpTo is the most arcs a component may have for its LP to be solved with all of them at once. CLP solves
// each round of pricing from scratch, and for a small LP a second round costs more than the columns the first
// round leaves out; around this size the two take about as long, and larger LPs are solved faster priced.
const wholeUpTo = 8000

// startArcs is how many of each class's cheapest arcs the LP of a component starts with: all of them in a
// component of at most wholeUpTo arcs, pricedFrom in a larger one.
func startArcs(classes []class, comp component) int {
	arcs := 0
	for _, c := range comp.classes {
		arcs += len(classes[c].arcs)
	}
	if arcs <= wholeUpTo {
		return math.MaxInt
	}
	return pricedFrom
}

// pricingTolerance is how negative a reduced cost must be, relative to the arc's cost, to take the arc in: CLP's
// own dual tolerance is 1e-7.
const pricingTolerance = 1e-7

// componentModel is what the LP of a component is made of: per class and arc the cost, per seed its row and its
// utilization segments with their costs.
type componentModel struct {
	classes []class
	comp    component
	arcCost [][]float64
	seedRow map[int]int
	convex  map[int][]segment
	segCost map[int][]float64
}

func (lp LP) componentModel(w *Window, classes []class, comp component, segments [][]segment, extremes arcExtremes) *componentModel {
	distanceWeight := lp.Weights.distanceWeight(len(comp.seeds))
	var partSeeds []Seed
	for _, s := range comp.seeds {
		partSeeds = append(partSeeds, w.Seeds[s])
	}
	// The shoots to place are fixed, so the unplaced penalty plays no part; a shoot above its target still does.
	abovePenalty, _ := penalties(extremes, lp.Weights, distanceWeight, len(comp.seeds), targeted(partSeeds))
	shoots, hosted := 0, 0
	for _, c := range comp.classes {
		shoots += len(classes[c].shoots)
	}
	for _, s := range comp.seeds {
		hosted = max(hosted, w.Seeds[s].Usage)
	}
	tie := lp.Weights.tieBreak(shoots, hosted)
	m := &componentModel{classes: classes, comp: comp, arcCost: make([][]float64, len(comp.classes)),
		seedRow: make(map[int]int, len(comp.seeds)), convex: make(map[int][]segment, len(comp.seeds)), segCost: make(map[int][]float64, len(comp.seeds))}
	for i, s := range comp.seeds {
		m.seedRow[s] = len(comp.classes) + i
		m.convex[s] = strictlyConvex(segments[s], w.Seeds[s].Usage, shoots, tie) // each seed's segments with the tie rule
		for _, seg := range m.convex[s] {
			cost := lp.Weights.Balance*seg.slope + seg.extra
			if seg.above {
				cost += abovePenalty
			}
			m.segCost[s] = append(m.segCost[s], cost)
		}
	}
	for i, c := range comp.classes {
		for _, a := range classes[c].arcs {
			m.arcCost[i] = append(m.arcCost[i], distanceWeight*extremes.weighed(a.Distance)+lp.Weights.SoftViolation*float64(a.SoftViolations))
		}
	}
	return m
}

// classArc is an arc of a class, both by position.
type classArc struct{ class, arc int }

// program is the LP over the included arcs: rows, one per class (its shoots to place), then one per seed (placed
// = segment fill); columns, the included arcs (listed in columns), then every seed's segments.
func (m *componentModel) program(placed []int, included [][]bool) (*program, []classArc) {
	prog := newProgram()
	for i := range m.comp.classes {
		prog.row(float64(placed[i]), float64(placed[i]))
	}
	for range m.comp.seeds {
		prog.row(0, 0)
	}
	var columns []classArc
	for i := range m.comp.classes {
		for a, in := range included[i] {
			if in {
				columns = append(columns, classArc{i, a})
			}
		}
	}
	segmentColumns := 0
	for _, s := range m.comp.seeds {
		segmentColumns += len(m.convex[s])
	}
	prog.reserve(len(columns)+segmentColumns, 2*len(columns)+segmentColumns)
	for _, ca := range columns {
		cl := m.classes[m.comp.classes[ca.class]]
		arc := cl.arcs[ca.arc]
		prog.column([]clp.Nonzero{{Index: ca.class, Value: 1}, {Index: m.seedRow[arc.Seed], Value: -1}}, 0, float64(len(cl.shoots)), m.arcCost[ca.class][ca.arc])
	}
	for _, s := range m.comp.seeds {
		for k, seg := range m.convex[s] {
			prog.column([]clp.Nonzero{{Index: m.seedRow[s], Value: 1}}, 0, seg.upper(), m.segCost[s][k])
		}
	}
	return prog, columns
}

// price includes every arc left out whose reduced cost under the row duals is negative, and returns how many it
// included. An arc's column has +1 in its class's row and −1 in its seed's, so its reduced cost is its cost −
// the class's dual + the seed's.
func (m *componentModel) price(duals []float64, included [][]bool) int {
	added := 0
	for i, c := range m.comp.classes {
		for a, arc := range m.classes[c].arcs {
			if included[i][a] {
				continue
			}
			cost := m.arcCost[i][a]
			if cost-duals[i]+duals[m.seedRow[arc.Seed]] < -pricingTolerance*(1+math.Abs(cost)) {
				included[i][a] = true
				added++
			}
		}
	}
	return added
}

// assemble turns class counts into an assignment of shoots: each class hands its shoots, earliest first, to its
// cheapest arcs. A fractional value is rounded down and the shoots it leaves are placed on any arc that still
// has room; integral is false when that happened.
func assemble(w *Window, classes []class, components []component, results []componentResult) (*Assignment, bool) {
	free := w.free()
	a := &Assignment{Seed: make([]int, len(w.Shoots)), Cause: make([]Cause, len(w.Shoots))}
	for i := range a.Seed {
		a.Seed[i] = -1
	}
	place := func(shoot int, arc Arc) bool {
		if free[arc.Seed] == 0 {
			return false
		}
		a.Seed[shoot] = arc.Seed
		take(&free[arc.Seed])
		return true
	}
	integral := true
	for ci, comp := range components {
		for i, c := range comp.classes {
			integral = handOut(results[ci].counts[i], classes[c].arcs, classes[c].shoots, place) && integral
		}
	}
	// Repair: a shoot left unplaced while one of its seeds has room is placed there.
	unplaced := func(shoot int) bool { return a.Seed[shoot] < 0 }
	for _, cl := range classes {
		if repair(cl.shoots, cl.arcs, unplaced, place) > 0 {
			integral = false
		}
	}
	unplacedCauses(w, a, free)
	return a, integral
}

// unplacedCauses sets the cause of every unplaced shoot of an assignment that left the seeds with the given
// room: a shoot the greedy rule rejects even before the window keeps that cause; otherwise the window's
// placements took the room, and the cause is the rule's at the end of the window.
func unplacedCauses(w *Window, a *Assignment, free []int) {
	initial, usage := w.free(), make([]int, len(w.Seeds)) // only the causes are used, not the choices
	for i, g := range w.Shoots {
		if a.Seed[i] >= 0 {
			a.Cause[i] = Placed
			continue
		}
		group := &w.Groups[g]
		_, cause := decide(group, initial, usage)
		if cause == Placed {
			_, cause = decide(group, free, usage)
		}
		if cause == Placed {
			// Unreachable after the repair: every seed the rule could choose is an arc without room.
			cause = CauseNoArcWithRoom
		}
		a.Cause[i] = cause
	}
}
