package solver

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/lanl/clp"

	"github.com/seedplan/seedplan/model"
)

// Capacity answers a model.CapacityPlanning: the fewest new seeds, per template, that let every pending shoot be
// placed with every seed at or below the target. The placement is a transportation LP on CLP in which each
// template's new seeds are a variable y (capacity PerSeed·y); the fewest seeds is the integer optimum of Σy,
// found by branch and bound on the y variables over that LP.
type Capacity struct {
	// Timeout bounds the branch and bound (0: no bound); the best answer found so far is returned, not proven.
	Timeout time.Duration
	// MaxNodes bounds the branch and bound's LP solves (0: 500).
	MaxNodes int
}

// CapacityPlan is the answer.
type CapacityPlan struct {
	// NewSeeds per template, in the order of CapacityPlanning.Templates.
	NewSeeds []int
	// OnNewSeeds is how many pending shoots would go to each template's new seeds.
	OnNewSeeds []int
	// OnExisting is how many pending shoots fit on existing seeds below their target.
	OnExisting int
	// LowerBound is the LP's bound on the total of new seeds; Optimal is true when the total is proven minimal.
	LowerBound int
	Optimal    bool
	// Unplaceable are the pending shoots no existing seed and no new seed like an existing one may take.
	Unplaceable []model.Unschedulable
}

// Total is the number of new seeds.
func (p *CapacityPlan) Total() int { return total(p.NewSeeds) }

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

// Plan answers the question.
func (cp Capacity) Plan(ctx context.Context, q *model.CapacityPlanning) (*CapacityPlan, error) {
	w := q.Window
	isCandidate := make([]int, len(q.Snapshot.Seeds)) // template index + 1
	for t, tmpl := range q.Templates {
		isCandidate[tmpl.Candidate] = t + 1
	}
	plan := &CapacityPlan{NewSeeds: make([]int, len(q.Templates)), OnNewSeeds: make([]int, len(q.Templates))}
	classes := buildClasses(w, func(a model.Arc) bool { return isCandidate[a.Seed] > 0 || q.Room[a.Seed] != 0 })
	for _, c := range classes {
		if len(c.arcs) > 0 {
			continue
		}
		for _, i := range c.shoots {
			ev := w.Evaluations[i]
			u := model.Unschedulable{Shoot: w.Keys[i], Reason: model.PredicateStrategy,
				Message: "no seed, and no new seed like an existing usable one, passes the shoot's predicates and strategy"}
			switch {
			case ev.Err != nil:
				u.Reason, u.Message = ev.ErrPredicate, ev.Err.Error()
			case ev.StrategyErr != nil:
				u.Message = ev.StrategyErr.Error()
			case len(ev.Arcs) > 0:
				u.Reason = model.PredicateCapacity
				u.Message = fmt.Sprintf("the %d seeds the shoot may use are at the target utilization, and a new seed like the template of their provider and region would not pass the shoot's predicates", len(ev.Arcs))
			}
			plan.Unplaceable = append(plan.Unplaceable, u)
		}
	}
	slices.SortFunc(plan.Unplaceable, func(a, b model.Unschedulable) int { return strings.Compare(a.Shoot, b.Shoot) })

	var deadline time.Time
	if cp.Timeout > 0 {
		deadline = time.Now().Add(cp.Timeout)
	}
	lower := make([]float64, len(q.Templates))
	upper := make([]float64, len(q.Templates))
	for t := range upper {
		upper[t] = math.Inf(1)
	}
	root, err := cp.solveNode(q, classes, isCandidate, lower, upper, deadline)
	if err != nil {
		return nil, err
	}
	if root.timedOut {
		return nil, fmt.Errorf("capacity: CLP ran out of time (%v) before the first answer", cp.Timeout)
	}
	sumY := func(n *capacityLP) float64 { return n.objective - unplacedCost*n.unplaced }
	plan.LowerBound = int(math.Ceil(sumY(root) - integralityTolerance))

	// The incumbent: every template's y rounded up is always feasible.
	bestY := make([]int, len(root.y))
	for t, y := range root.y {
		bestY[t] = int(math.Ceil(y - integralityTolerance))
	}
	bestObjective := unplacedCost*root.unplaced + float64(total(bestY))
	best := root
	type node struct{ lower, upper []float64 }
	stack := []node{{lower, upper}}
	maxNodes := cmp.Or(cp.MaxNodes, 500)
	nodes := 0
	complete := true
	for len(stack) > 0 {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("capacity: %w", err)
		}
		if nodes == maxNodes || !deadline.IsZero() && time.Now().After(deadline) {
			complete = false
			break
		}
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		lp := root
		if nodes > 0 {
			if lp, err = cp.solveNode(q, classes, isCandidate, n.lower, n.upper, deadline); err != nil {
				return nil, err
			}
		}
		nodes++
		if lp.timedOut {
			complete = false
			break
		}
		// An integral answer must be at least one seed better to count.
		if !lp.feasible || lp.objective > bestObjective-1+integralityTolerance {
			continue
		}
		branch, fraction := -1, 0.0
		for t, y := range lp.y {
			if f := math.Abs(y - math.Round(y)); f > integralityTolerance && f > fraction {
				branch, fraction = t, f
			}
		}
		if branch < 0 {
			for t, y := range lp.y {
				bestY[t] = int(math.Round(y))
			}
			bestObjective, best = lp.objective, lp
			continue
		}
		down, up := slices.Clone(n.upper), slices.Clone(n.lower)
		down[branch] = math.Floor(lp.y[branch])
		up[branch] = math.Ceil(lp.y[branch])
		// Depth first, rounding up first: it finds integral answers soonest.
		stack = append(stack, node{n.lower, down}, node{up, n.upper})
	}
	plan.Optimal = complete || total(bestY) == plan.LowerBound
	copy(plan.NewSeeds, bestY)
	for c, cl := range classes {
		for a, arc := range cl.arcs {
			if t := isCandidate[arc.Seed]; t > 0 {
				plan.OnNewSeeds[t-1] += int(math.Round(best.flows[c][a]))
			} else {
				plan.OnExisting += int(math.Round(best.flows[c][a]))
			}
		}
	}
	return plan, nil
}

// solveNode solves the placement LP with the given bounds on each template's new seeds.
func (cp Capacity) solveNode(q *model.CapacityPlanning, classes []class, isCandidate []int, lower, upper []float64, deadline time.Time) (*capacityLP, error) {
	prog := newProgram()
	classRow := make([]int, len(classes))
	for c, cl := range classes {
		n := float64(len(cl.shoots))
		classRow[c] = prog.row(n, n)
	}
	// A seed's row: what it takes ≤ its room; for a candidate, ≤ PerSeed × y (the y column carries −PerSeed).
	seedRow := map[int]int{}
	for _, cl := range classes {
		for _, a := range cl.arcs {
			if _, ok := seedRow[a.Seed]; ok {
				continue
			}
			switch {
			case isCandidate[a.Seed] > 0:
				seedRow[a.Seed] = prog.row(math.Inf(-1), 0)
			case q.Room[a.Seed] != model.Unlimited:
				seedRow[a.Seed] = prog.row(math.Inf(-1), float64(q.Room[a.Seed]))
			}
		}
	}
	flowColumns := make([][]int, len(classes))
	unplacedColumns := make([]int, len(classes))
	for c, cl := range classes {
		n := float64(len(cl.shoots))
		for _, a := range cl.arcs {
			entries := []clp.Nonzero{{Index: classRow[c], Value: 1}}
			if row, ok := seedRow[a.Seed]; ok {
				entries = append(entries, clp.Nonzero{Index: row, Value: 1})
			}
			flowColumns[c] = append(flowColumns[c], prog.column(entries, 0, n, 0))
		}
		unplacedColumns[c] = prog.column([]clp.Nonzero{{Index: classRow[c], Value: 1}}, 0, n, unplacedCost)
	}
	yColumns := make([]int, len(q.Templates))
	for t, tmpl := range q.Templates {
		var entries []clp.Nonzero
		if row, ok := seedRow[tmpl.Candidate]; ok {
			entries = []clp.Nonzero{{Index: row, Value: -float64(tmpl.PerSeed)}}
		}
		yColumns[t] = prog.column(entries, lower[t], upper[t], 1)
	}

	solution, err := prog.solve(deadline, fmt.Sprintf("%d classes of pending shoots and %d seed templates", len(classes), len(q.Templates)))
	if err != nil {
		return nil, fmt.Errorf("capacity: %w", err)
	}
	result := &capacityLP{timedOut: solution.status == lpStopped, feasible: solution.status == lpOptimal}
	if !result.feasible {
		return result, nil
	}
	result.objective = solution.objective
	for _, col := range yColumns {
		result.y = append(result.y, solution.values[col])
	}
	result.flows = make([][]float64, len(classes))
	for c := range classes {
		for _, col := range flowColumns[c] {
			result.flows[c] = append(result.flows[c], solution.values[col])
		}
		result.unplaced += solution.values[unplacedColumns[c]]
	}
	return result, nil
}
