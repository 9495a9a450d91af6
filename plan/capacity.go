package plan

import (
	"context"
	"slices"
	"strings"

	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/solver"
)

// CapacityAnswer says how many new seeds of which template let every pending shoot be placed at or below the
// target.
type CapacityAnswer struct {
	// Question is what the answer answers.
	Question *model.CapacityPlanning
	// NewSeeds per template, in the order of CapacityPlanning.Templates; OnNewSeeds how many pending shoots
	// would go to each template's new seeds.
	NewSeeds, OnNewSeeds []int
	// OnExisting is how many pending shoots fit on existing seeds below their target.
	OnExisting int
	// LowerBound is the LP's bound on the total of new seeds; Optimal is true when the total is proven minimal.
	LowerBound int
	Optimal    bool
	// Unplaceable are the pending shoots no existing seed and no new seed like an existing one may take, by
	// namespace/name.
	Unplaceable []model.Unschedulable
}

// Total is the number of new seeds.
func (a *CapacityAnswer) Total() int {
	n := 0
	for _, seeds := range a.NewSeeds {
		n += seeds
	}
	return n
}

// Capacity is the use case: how many new seeds of which kind let every pending shoot of the snapshot be placed
// with every seed at or below the target, under the policy.
func Capacity(ctx context.Context, snap *model.Snapshot, p Policy, target float64) (*CapacityAnswer, error) {
	q, err := model.NewCapacityPlanning(snap, p.Options, target)
	if err != nil {
		return nil, err
	}
	return SolveCapacity(ctx, q, solver.Capacity{Timeout: p.Budget.Timeout})
}

// SolveCapacity answers the capacity question with the solver.
func SolveCapacity(ctx context.Context, q *model.CapacityPlanning, c solver.Capacity) (*CapacityAnswer, error) {
	problem := &solver.CapacityPlanning{Window: windowProblem(q.Window), Room: make([]int, len(q.Room))}
	for i, r := range q.Room {
		problem.Room[i] = room(r)
	}
	for _, t := range q.Templates {
		problem.Templates = append(problem.Templates, solver.Template{Candidate: t.Candidate, PerSeed: t.PerSeed})
	}
	plan, err := c.Plan(ctx, problem)
	if err != nil {
		return nil, err
	}
	answer := &CapacityAnswer{Question: q, NewSeeds: plan.NewSeeds, OnNewSeeds: plan.OnNewSeeds, OnExisting: plan.OnExisting,
		LowerBound: plan.LowerBound, Optimal: plan.Optimal}
	for _, i := range plan.Unplaceable {
		answer.Unplaceable = append(answer.Unplaceable, q.Unplaceable(i))
	}
	slices.SortFunc(answer.Unplaceable, func(a, b model.Unschedulable) int { return strings.Compare(a.Shoot, b.Shoot) })
	return answer, nil
}
