package solver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/lanl/clp"
)

// CapacityPlanning asks how many new seeds of which templates let every shoot of a window be placed with every
// seed at or below its target. Each template is represented in the window by a candidate seed that stands for
// every new seed like it.
type CapacityPlanning struct {
	// Window holds the shoots and their arcs; its seeds' Free is not used.
	Window *Window
	// Room is how many shoots each seed may take below its target, or Unlimited; 0 for candidates.
	Room      []int
	Templates []Template
}

// Template is a kind of new seed.
type Template struct {
	// Candidate is the index of the seed that stands for the new seeds.
	Candidate int
	// PerSeed is how many shoots one new seed takes at the target.
	PerSeed int
}

// Capacity answers a CapacityPlanning: the fewest new seeds, per template, that let every pending shoot be
// placed with every seed at or below the target. The placement is a transportation LP on CLP in which each
// template's new seeds are a variable y (capacity PerSeed·y); the fewest seeds is the integer optimum of Σy,
// found by branch and bound on the y variables over that LP, with cover cuts in every LP and every answer found
// trimmed (capacity_tighten.go), in each independent part of the question by itself (Plan).
type Capacity struct {
	// Timeout bounds the branch and bound (0: no bound); the best answer found so far is returned, not proven.
	Timeout time.Duration
	// MaxNodes bounds the LP solves of each part's branch and bound (0: 5,000), where Timeout does not first.
	MaxNodes int
}

// CapacityPlan is the answer.
type CapacityPlan struct {
	// NewSeeds per template, in the order of CapacityPlanning.Templates.
	NewSeeds []int
	// Seed is, per shoot of the window, the seed it goes to — an existing seed or a template's candidate — or -1
	// when no seed and no new seed may take it. With the new seeds fixed, as many shoots as fit go to existing
	// seeds: the split does not depend on which branch and bound node found them.
	Seed []int
	// LowerBound is the fewest new seeds proven necessary, added up over the parts: a part's answer where its
	// search proved it minimal, and where not what its search proved (its root LP's bound rounded up, or its open
	// nodes' when the search stopped). Optimal is true when the total is proven minimal, and LowerBound is then the
	// total.
	LowerBound int
	Optimal    bool
	// Fallback is FallbackTimeout when CLP ran out of time before a part's root LP had an answer: that part's new
	// seeds are then those of withoutLP, and its bound its largest cover cut's.
	Fallback string
}

// CapacityFallbackReasons are every reason CapacityPlan.Fallback may give.
func CapacityFallbackReasons() []string { return []string{FallbackTimeout} }

func total(newSeeds []int) int {
	n := 0
	for _, seeds := range newSeeds {
		n += seeds
	}
	return n
}

// capacityLP is the LP of one branch and bound node.
type capacityLP struct {
	objective float64
	y         []float64
	// flows[c][a] is how many shoots of class c go to arc a.
	flows    [][]float64
	unplaced float64
	feasible bool
	timedOut bool
}

// unplacedCost is what an unplaced shoot costs: more than the new seed it could need.
const unplacedCost = 10

// Plan answers the question. Shoots that share no seed, existing or new, with others are a part of the question
// of their own, and each part is searched by itself: the fewest new seeds are the sum of each part's fewest, and
// a part's search proves its own answer where one search over all of them would branch over every combination of
// their fractions.
func (cp Capacity) Plan(ctx context.Context, q *CapacityPlanning) (*CapacityPlan, error) {
	search := newCapacitySearch(cp, q)
	best, err := search.runParts(ctx)
	if err != nil {
		return nil, err
	}
	plan := &CapacityPlan{NewSeeds: best.y, LowerBound: best.lowerBound, Optimal: best.complete, Fallback: best.fallback}
	if plan.Seed, err = search.assign(best.y); err != nil {
		return nil, err
	}
	return plan, nil
}

// assign places the shoots on the new seeds found: with each template's seeds fixed, the LP places every shoot
// it can, on existing seeds before new ones (each shoot on a new seed costs a little), and its counts become
// shoots, first first.
func (s *capacitySearch) assign(y []int) ([]int, error) {
	fixed := make([]float64, len(y))
	for t, n := range y {
		fixed[t] = float64(n)
	}
	// Unbounded by the budget, which the search before it has already spent.
	lp, err := s.solveNode(nodeLP{lower: fixed, upper: fixed, newSeedArc: 1 / float64(len(s.q.Window.Shoots)+1)})
	if err != nil {
		return nil, err
	}
	if !lp.feasible {
		return nil, fmt.Errorf("capacity: the placement for %d new seeds is infeasible", total(y))
	}
	room := slices.Clone(s.q.Room)
	for t, tmpl := range s.q.Templates {
		room[tmpl.Candidate] = tmpl.PerSeed * y[t]
	}
	seedOf := make([]int, len(s.q.Window.Shoots))
	for i := range seedOf {
		seedOf[i] = -1
	}
	place := func(shoot int, a Arc) bool {
		if room[a.Seed] == 0 {
			return false
		}
		take(&room[a.Seed])
		seedOf[shoot] = a.Seed
		return true
	}
	for c, cl := range s.classes {
		if !handOut(lp.flows[c], cl.arcs, cl.shoots, place) {
			repair(cl.shoots, cl.arcs, func(shoot int) bool { return seedOf[shoot] < 0 }, place)
		}
	}
	return seedOf, nil
}

// capacitySearch is the branch and bound over the new seeds of each template.
type capacitySearch struct {
	cp          Capacity
	q           *CapacityPlanning
	classes     []class
	isCandidate []int // by seed: template index + 1, 0 for an existing seed
	// templates are, per class, the templates whose new seeds it may use, ascending.
	templates [][]int
	deadline  time.Time
	// covers are cuts every answer meets (coverCuts), rows of every LP of the search.
	covers []cover
}

// newCapacitySearch is the search of the question, before it runs: its classes of shoots, each with the
// templates it may use, and the cover cuts.
func newCapacitySearch(cp Capacity, q *CapacityPlanning) *capacitySearch {
	s := &capacitySearch{cp: cp, q: q, isCandidate: make([]int, len(q.Window.Seeds)), deadline: Budget{Timeout: cp.Timeout}.Deadline()}
	for t, tmpl := range q.Templates {
		s.isCandidate[tmpl.Candidate] = t + 1
	}
	s.classes = buildClasses(q.Window, func(a Arc) bool { return s.isCandidate[a.Seed] > 0 || q.Room[a.Seed] != 0 })
	s.templates = make([][]int, len(s.classes))
	for c, cl := range s.classes {
		for _, a := range cl.arcs {
			if t := s.isCandidate[a.Seed] - 1; t >= 0 && !slices.Contains(s.templates[c], t) {
				s.templates[c] = append(s.templates[c], t)
			}
		}
		slices.Sort(s.templates[c])
	}
	s.covers = s.coverCuts()
	return s
}

// parts are the searches of the question's independent parts (splitComponents): a part's classes share no seed,
// existing or new, with another's. Parts whose shoots may use no new seed are left out: they open none.
func (s *capacitySearch) parts() []*capacitySearch {
	var parts []*capacitySearch
	for _, comp := range splitComponents(s.classes, len(s.q.Window.Seeds)) {
		part := &capacitySearch{cp: s.cp, q: s.q, isCandidate: s.isCandidate, deadline: s.deadline}
		for _, c := range comp.classes {
			part.classes = append(part.classes, s.classes[c])
			part.templates = append(part.templates, s.templates[c])
		}
		if slices.ContainsFunc(part.templates, func(templates []int) bool { return len(templates) > 0 }) {
			part.covers = part.coverCuts()
			parts = append(parts, part)
		}
	}
	return parts
}

// capacityBest is the best integral answer a search found.
type capacityBest struct {
	// y is the new seeds per template (assign places the shoots for them).
	y []int
	// lowerBound is what the search proved of the total: the root LP's bound rounded up, raised by a search that
	// stopped to its open nodes' (for the parts added up, runParts: each part's proven bound); complete says the
	// search ended without a limit (for the parts added up: that each part's did or met its bound, so the answer is
	// proven minimal).
	lowerBound int
	complete   bool
	// fallback says why the answer is not the LP's (FallbackTimeout), if it is not.
	fallback string
}

// runParts searches the parts, as many at once as there are processors, and adds up their answers: the parts'
// new seeds; their bounds, a proven part's being its answer, so that a proven total is its own bound; complete
// (proven) where every part's search ended without a limit or met its bound; and a fallback where any part's is
// one. Every part's root LP comes first, within the whole budget, as the one root of the whole question did; then
// the parts whose roots left a gap branch, the smallest first, each for its share of the time left, so that no
// part's branching takes the time of another's root or all of another's branching. Fewer parts branching than
// there are processors share them out: each solves as many of its nodes at once as it has processors.
func (s *capacitySearch) runParts(ctx context.Context) (*capacityBest, error) {
	parts := s.parts()
	bests, roots, errs := make([]*capacityBest, len(parts)), make([]*capacityLP, len(parts)), make([]error, len(parts))
	onSlots(processorSlots(), len(parts), func(i int) { bests[i], roots[i], errs[i] = parts[i].root() })
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	var gaps []int
	for i, best := range bests {
		if roots[i] != nil && total(best.y) > best.lowerBound {
			gaps = append(gaps, i)
		}
	}
	slices.SortStableFunc(gaps, func(a, b int) int { return cmp.Compare(len(parts[a].classes), len(parts[b].classes)) })
	slots := processorSlots()
	width := max(1, cap(slots)/max(1, len(gaps)))
	onSlots(slots, len(gaps), func(k int) {
		part := parts[gaps[k]]
		part.deadline = shareOf(part.deadline, time.Now(), len(gaps)-k, cap(slots))
		errs[gaps[k]] = part.branch(ctx, bests[gaps[k]], roots[gaps[k]], width)
	})
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	all := &capacityBest{y: make([]int, len(s.q.Templates)), complete: true}
	for _, best := range bests {
		for t, n := range best.y {
			all.y[t] += n
		}
		proven := best.complete || total(best.y) == best.lowerBound
		if proven {
			all.lowerBound += total(best.y)
		} else {
			all.lowerBound += best.lowerBound
		}
		all.complete = all.complete && proven
		all.fallback = cmp.Or(all.fallback, best.fallback)
	}
	return all, nil
}

// shareOf is the deadline of the next of left searches that run, slots at a time, until deadline: an even share
// of the time left, which grows for the later ones as earlier ones finish before theirs. No deadline stays none.
func shareOf(deadline, now time.Time, left, slots int) time.Time {
	if deadline.IsZero() {
		return deadline
	}
	return now.Add(deadline.Sub(now) * time.Duration(min(slots, left)) / time.Duration(left))
}

// root solves the LP at the root of the search, the bound of every answer, and takes its answer rounded up and
// trimmed as the first incumbent, as it is always feasible. When CLP runs out of time first, the answer is the one
// without the LP, and root nil.
func (s *capacitySearch) root() (*capacityBest, *capacityLP, error) {
	if s.pastDeadline() {
		return s.withoutLP(), nil, nil // CLP would be given a millisecond at least
	}
	root, err := s.solveNode(nodeLP{lower: make([]float64, len(s.q.Templates)), upper: s.openUpper(), deadline: s.deadline})
	switch {
	case err != nil:
		return nil, nil, err
	case root.timedOut:
		return s.withoutLP(), nil, nil
	}
	best := &capacityBest{y: make([]int, len(root.y)), complete: true,
		lowerBound: int(math.Ceil(sum(root.y) - integralityTolerance))}
	s.takeIncumbent(best, root)
	return best, root, nil
}

// openUpper bounds each template's new seeds from above: without a bound for those the search's classes may use,
// 0 for the others, which are another part's.
func (s *capacitySearch) openUpper() []float64 {
	upper := make([]float64, len(s.q.Templates))
	for _, templates := range s.templates {
		for _, t := range templates {
			upper[t] = math.Inf(1)
		}
	}
	return upper
}

// branch is the search below the root, best bound first: it solves the open nodes whose parents' LPs cost least,
// width of them at once, each on a processor, and of equally bounded ones the last opened, rounding up first. It
// takes each answer at least one seed better into best; when it stops at a limit it marks best incomplete and
// raises best's bound to what every open node's answers need, which is the root's until each node of the root's
// bound is solved. Which nodes it solves, and so its answer, depends on width, not on which LP finishes first.
func (s *capacitySearch) branch(ctx context.Context, best *capacityBest, root *capacityLP, width int) error {
	bestObjective := cost(best.y, root)
	// An answer counts only at least one seed better than best's, so a node or a subtree bounded above that cannot
	// improve on it.
	cannotImprove := func(bound float64) bool { return bound > bestObjective-1+integralityTolerance }
	var open []openNode
	stop := func() {
		best.complete = false
		best.lowerBound = max(best.lowerBound, min(provenSeeds(open, root), total(best.y)))
	}
	// expand takes a node's answer: an integral one into best, a fractional one as two open nodes, one on either
	// side of its first fractional template's seeds.
	expand := func(n openNode, lp *capacityLP) {
		switch branch := fractional(lp.y); {
		case !lp.feasible || cannotImprove(lp.objective):
		case branch < 0:
			bestObjective = s.takeIncumbent(best, lp)
		default:
			down, up := slices.Clone(n.upper), slices.Clone(n.lower)
			down[branch] = math.Floor(lp.y[branch])
			up[branch] = math.Ceil(lp.y[branch])
			open = append(open, openNode{n.lower, down, lp.objective}, openNode{up, n.upper, lp.objective})
		}
	}
	expand(openNode{make([]float64, len(s.q.Templates)), s.openUpper(), root.objective}, root)
	maxNodes := cmp.Or(s.cp.MaxNodes, 5000)
	for nodes := 1; len(open) > 0; {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("capacity: %w", err)
		}
		if nodes >= maxNodes || s.pastDeadline() {
			stop()
			return nil
		}
		var batch []openNode
		if batch, open = takeLeastBound(open, min(width, maxNodes-nodes), cannotImprove); len(batch) == 0 {
			break // no node below costs less than its parent: none left open can improve on best
		}
		lps, err := s.solveNodes(batch)
		if err != nil {
			return err
		}
		nodes += len(batch)
		timedOut := false
		for i, lp := range lps {
			if lp.timedOut {
				open, timedOut = append(open, batch[i]), true
				continue
			}
			expand(batch[i], lp)
		}
		if timedOut {
			stop()
			return nil
		}
	}
	return nil
}

// solveNodes solves the LPs of the nodes, each on a goroutine of its own.
func (s *capacitySearch) solveNodes(nodes []openNode) ([]*capacityLP, error) {
	lps, errs := make([]*capacityLP, len(nodes)), make([]error, len(nodes))
	onSlots(make(chan struct{}, len(nodes)), len(nodes), func(i int) {
		lps[i], errs[i] = s.solveNode(nodeLP{lower: nodes[i].lower, upper: nodes[i].upper, deadline: s.deadline})
	})
	return lps, errors.Join(errs...)
}

// openNode is a node of the search not yet solved: its bounds on each template's new seeds, and its parent's LP
// objective, which no answer below it costs less than.
type openNode struct {
	lower, upper []float64
	bound        float64
}

// takeLeastBound takes up to n open nodes out of open, least bound first and of equally bounded ones the last,
// while they can improve on the best answer; it returns them and the nodes left open.
func takeLeastBound(open []openNode, n int, cannotImprove func(bound float64) bool) (taken, left []openNode) {
	for len(taken) < n && len(open) > 0 {
		next := len(open) - 1
		for i := next - 1; i >= 0; i-- {
			if open[i].bound < open[next].bound-integralityTolerance {
				next = i
			}
		}
		if cannotImprove(open[next].bound) {
			break
		}
		taken, open = append(taken, open[next]), slices.Delete(open, next, next+1)
	}
	return taken, open
}

// provenSeeds is how many new seeds every answer below the open nodes needs: their least bound, less what the
// shoots the root LP leaves unplaced cost. Every answer places as many shoots as the root LP does, as a new seed
// costs less than a shoot left unplaced and the root's new seeds are unbounded.
func provenSeeds(open []openNode, root *capacityLP) int {
	least := math.Inf(1)
	for _, n := range open {
		least = min(least, n.bound)
	}
	return int(math.Ceil(least - unplacedCost*root.unplaced - integralityTolerance))
}

// takeIncumbent makes an LP's answer, rounded up and trimmed, best's answer, and returns what it costs.
func (s *capacitySearch) takeIncumbent(best *capacityBest, lp *capacityLP) float64 {
	for t, y := range lp.y {
		best.y[t] = int(math.Ceil(y - integralityTolerance))
	}
	best.y = s.trim(best.y, lp.y)
	return cost(best.y, lp)
}

// cost is what the search minimises, for new seeds y and the shoots lp leaves unplaced.
func cost(y []int, lp *capacityLP) float64 {
	return unplacedCost*lp.unplaced + float64(total(y))
}

func sum(values []float64) float64 {
	s := 0.0
	for _, v := range values {
		s += v
	}
	return s
}

// pastDeadline reports whether the search's time is up.
func (s *capacitySearch) pastDeadline() bool {
	return !s.deadline.IsZero() && time.Now().After(s.deadline)
}

// withoutLP is the answer when CLP runs out of time before the root LP's answer: the shoots the existing seeds
// cannot take go to new seeds, as the fewer of two greedy answers opens them (byLargest's on a tie); its bound is
// the largest cover cut's. Like the window's greedy fallback it is an answer, where an error would leave a seed
// autoscaler with none. It is not trimmed: it is only asked for once the budget is spent, and trimming would
// overrun it.
func (s *capacitySearch) withoutLP() *capacityBest {
	left := s.leftByExisting()
	y := s.byLargest(left)
	if covered := s.byCover(left); total(covered) < total(y) {
		y = covered
	}
	best := &capacityBest{y: y, fallback: FallbackTimeout}
	for _, c := range s.covers {
		best.lowerBound = max(best.lowerBound, int(c.seeds))
	}
	return best
}

// leftByExisting is, by class, how many shoots the existing seeds leave to new ones (placement's flow, which fills
// them with the shoots no new seed could take first).
func (s *capacitySearch) leftByExisting() []int {
	f := s.placement(make([]int, len(s.q.Templates)))
	left := make([]int, len(s.classes))
	for c, cl := range s.classes {
		left[c] = len(cl.shoots) - f.placed[c]
	}
	return left
}

// byLargest puts each class's shoots left on new seeds of the largest template it may use, and rounds each
// template's shoots up to whole seeds.
func (s *capacitySearch) byLargest(left []int) []int {
	need := make([]int, len(s.q.Templates))
	for c, cl := range s.classes {
		if t := s.largestTemplate(cl); t >= 0 {
			need[t] += left[c]
		}
	}
	y := make([]int, len(need))
	for t, n := range need {
		y[t] = (n + s.q.Templates[t].PerSeed - 1) / s.q.Templates[t].PerSeed
	}
	return y
}

// byCover opens new seeds one at a time, each of the template that takes the most of the shoots left (at most a
// seed's worth; on a tie the larger seeds, then the lower template), and fills it with the shoots of the classes
// that may use the fewest templates first: greedy set cover. Where classes may use several templates it shares
// seeds between them, where byLargest rounds up every template some class finds largest.
func (s *capacitySearch) byCover(left []int) []int {
	left = slices.Clone(left)
	classesOf := make([][]int, len(s.q.Templates)) // by template, the classes that may use it, least choice first
	takes := make([]int, len(s.q.Templates))       // by template, the shoots left that may use it
	for c, templates := range s.templates {
		for _, t := range templates {
			classesOf[t] = append(classesOf[t], c)
			takes[t] += left[c]
		}
	}
	for _, classes := range classesOf {
		slices.SortStableFunc(classes, func(a, b int) int { return cmp.Compare(len(s.templates[a]), len(s.templates[b])) })
	}
	y := make([]int, len(s.q.Templates))
	for {
		open, gain := -1, 0
		for t, tmpl := range s.q.Templates {
			if g := min(takes[t], tmpl.PerSeed); g > gain || g == gain && g > 0 && tmpl.PerSeed > s.q.Templates[open].PerSeed {
				open, gain = t, g
			}
		}
		if open < 0 {
			return y
		}
		y[open]++
		for i, room := 0, gain; room > 0; i++ { // the seed takes gain shoots of its classes
			c := classesOf[open][i]
			n := min(room, left[c])
			left[c], room = left[c]-n, room-n
			for _, t := range s.templates[c] {
				takes[t] -= n
			}
		}
	}
}

// largestTemplate is the template of the largest new seeds a class may use, -1 if none: among equally large ones,
// the one its cheapest arc reaches (a class's arcs are cheapest first), so that shoots go to the nearer region.
func (s *capacitySearch) largestTemplate(cl class) int {
	largest := -1
	for _, a := range cl.arcs {
		if t := s.isCandidate[a.Seed] - 1; t >= 0 && (largest < 0 || s.q.Templates[t].PerSeed > s.q.Templates[largest].PerSeed) {
			largest = t
		}
	}
	return largest
}

// fractional is the index of the value farthest from an integer, or -1 when all are integral.
func fractional(values []float64) int {
	branch, fraction := -1, 0.0
	for i, v := range values {
		if f := math.Abs(v - math.Round(v)); f > integralityTolerance && f > fraction {
			branch, fraction = i, f
		}
	}
	return branch
}

// nodeLP is how one placement LP of the search is solved.
type nodeLP struct {
	// lower and upper bound each template's new seeds.
	lower, upper []float64
	deadline     time.Time
	// newSeedArc is what a shoot placed on a new seed costs.
	newSeedArc float64
}

// solveNode solves the placement LP of the node with the primal simplex: every LP of the search is solved from
// scratch (CLP's binding cannot change a loaded model's bounds), and from there the dual simplex's start is far
// from feasible — many times slower on large roots, and on assign's fixed seeds.
func (s *capacitySearch) solveNode(n nodeLP) (*capacityLP, error) {
	q, classes := s.q, s.classes
	prog := newProgram()
	prog.primal = true
	columns := capacityColumns{flows: make([][]int, len(classes)), unplaced: make([]int, len(classes))}
	classRow := make([]int, len(classes))
	for c, cl := range classes {
		shoots := float64(len(cl.shoots))
		classRow[c] = prog.row(shoots, shoots)
	}
	seedRow := seedRows(prog, q, classes, s.isCandidate)
	for c, cl := range classes {
		shoots := float64(len(cl.shoots))
		for _, a := range cl.arcs {
			entries := []clp.Nonzero{{Index: classRow[c], Value: 1}}
			if row, ok := seedRow[a.Seed]; ok {
				entries = append(entries, clp.Nonzero{Index: row, Value: 1})
			}
			cost := 0.0
			if s.isCandidate[a.Seed] > 0 {
				cost = n.newSeedArc
			}
			columns.flows[c] = append(columns.flows[c], prog.column(entries, 0, shoots, cost))
		}
		columns.unplaced[c] = prog.column([]clp.Nonzero{{Index: classRow[c], Value: 1}}, 0, shoots, unplacedCost)
	}
	coverEntries := s.coverRows(prog)
	for t, tmpl := range q.Templates {
		var entries []clp.Nonzero
		if row, ok := seedRow[tmpl.Candidate]; ok {
			entries = []clp.Nonzero{{Index: row, Value: -float64(tmpl.PerSeed)}}
		}
		entries = append(entries, coverEntries[t]...)
		columns.newSeeds = append(columns.newSeeds, prog.column(entries, n.lower[t], n.upper[t], 1))
	}
	solution, err := prog.solveWithin(n.deadline, fmt.Sprintf("%d classes of pending shoots and %d seed templates", len(classes), len(q.Templates)))
	if err != nil {
		return nil, fmt.Errorf("capacity: %w", err)
	}
	return columns.read(solution), nil
}

// seedRows are the rows of the seeds the classes' arcs reach, by seed: what a seed takes ≤ its room; for a
// candidate, ≤ PerSeed × y (the y column carries −PerSeed). A seed without a limit has none.
func seedRows(prog *program, q *CapacityPlanning, classes []class, isCandidate []int) map[int]int {
	seedRow := map[int]int{}
	for _, cl := range classes {
		for _, a := range cl.arcs {
			if _, ok := seedRow[a.Seed]; ok {
				continue
			}
			switch {
			case isCandidate[a.Seed] > 0:
				seedRow[a.Seed] = prog.row(math.Inf(-1), 0)
			case q.Room[a.Seed] != Unlimited:
				seedRow[a.Seed] = prog.row(math.Inf(-1), float64(q.Room[a.Seed]))
			}
		}
	}
	return seedRow
}

// capacityColumns are the columns of a capacity LP: each class's flow along each of its arcs and its unplaced
// shoots, and each template's new seeds (y).
type capacityColumns struct {
	flows    [][]int
	unplaced []int
	newSeeds []int
}

// read is the LP's answer in its columns' values, or only whether it stopped, when it has none.
func (columns capacityColumns) read(solution lpSolution) *capacityLP {
	result := &capacityLP{timedOut: solution.status == lpStopped, feasible: solution.status == lpOptimal}
	if !result.feasible {
		return result
	}
	result.objective = solution.objective
	for _, col := range columns.newSeeds {
		result.y = append(result.y, solution.values[col])
	}
	result.flows = make([][]float64, len(columns.flows))
	for c := range columns.flows {
		for _, col := range columns.flows[c] {
			result.flows[c] = append(result.flows[c], solution.values[col])
		}
		result.unplaced += solution.values[columns.unplaced[c]]
	}
	return result
}
