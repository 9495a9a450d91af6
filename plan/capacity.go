package plan

import (
	"context"
	"fmt"

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
	// OnExisting is how many pending shoots fit on existing seeds at or below their target.
	OnExisting int
	// LowerBound is the fewest new seeds proven necessary (solver.CapacityPlan.LowerBound); Optimal is true when the
	// total is proven minimal, which LowerBound then is.
	LowerBound int
	Optimal    bool
	// Fallback is solver.FallbackTimeout when CLP ran out of time before the LP's first answer (see
	// solver.CapacityPlan.Fallback).
	Fallback string
	// Unplaceable are the pending shoots no existing seed and no new seed like an existing one may take, by
	// namespace/name.
	Unplaceable []model.Unschedulable
	// ManagedSeedSets are the sets whose replicas the new seeds are, with how many to add, by namespace/name.
	ManagedSeedSets []SetReplicas
	// Placements are where the other pending shoots go, by namespace/name: an existing seed, or the candidate
	// (the template's name with model.CandidateSuffix) standing for a template's new seeds. With Unplaceable they
	// account for every pending shoot once.
	Placements []model.Placement
	// PendingForOthers counts, when no shoot is pending, the pending shoots of other schedulers by
	// spec.schedulerName (model.Snapshot.PendingForOthers), as Outcome does.
	PendingForOthers map[string]int
}

// SetReplicas is a ManagedSeedSet that new seeds belong to.
type SetReplicas struct {
	// Set is namespace/name; Replicas its spec.replicas now (Gardener's default 1 when unset); Add how many
	// replicas the new seeds are.
	Set      string
	Replicas int32
	Add      int
}

// Total is the number of new seeds.
func (a *CapacityAnswer) Total() int { return sum(a.NewSeeds) }

// OnNew is how many pending shoots go to new seeds.
func (a *CapacityAnswer) OnNew() int { return sum(a.OnNewSeeds) }

func sum(counts []int) int {
	n := 0
	for _, c := range counts {
		n += c
	}
	return n
}

// Capacity is the use case: how many new seeds of which kind let every pending shoot of the snapshot be placed
// with every seed at or below the policy's target.
func Capacity(ctx context.Context, snap *model.Snapshot, p Policy) (*CapacityAnswer, error) {
	q, err := model.NewCapacityPlanning(snap, p.Options, p.Target)
	if err != nil {
		return nil, err
	}
	return SolveCapacity(ctx, q, solver.Capacity{Timeout: p.Budget.Timeout})
}

// SolveCapacity answers the capacity question with the solver and verifies the answer (model.VerifyCapacity).
func SolveCapacity(ctx context.Context, q *model.CapacityPlanning, c solver.Capacity) (*CapacityAnswer, error) {
	pending := len(q.Window.Shoots)
	problem := &solver.CapacityPlanning{Window: windowProblem(q.Window, Policy{}), Room: make([]int, len(q.Room))}
	for i, r := range q.Room {
		problem.Room[i] = room(r, pending)
	}
	template := map[int]int{} // candidate → template index
	for t, tmpl := range q.Templates {
		problem.Templates = append(problem.Templates, solver.Template{Candidate: tmpl.Candidate, PerSeed: room(tmpl.PerSeed, pending)})
		template[tmpl.Candidate] = t
	}
	plan, err := c.Plan(ctx, problem)
	if err != nil {
		return nil, err
	}
	answer := &CapacityAnswer{Question: q, NewSeeds: plan.NewSeeds, OnNewSeeds: make([]int, len(q.Templates)),
		LowerBound: plan.LowerBound, Optimal: plan.Optimal, Fallback: plan.Fallback}
	var unplaceable []string
	for _, i := range q.Window.ByKey {
		seed := plan.Seed[i]
		if seed < 0 {
			answer.Unplaceable = append(answer.Unplaceable, q.Unplaceable(i))
			unplaceable = append(unplaceable, q.Window.Keys[i])
			continue
		}
		answer.Placements = append(answer.Placements, model.NewPlacement(q.Window.Keys[i], q.Window.Shoots[i], q.Snapshot.Seeds[seed],
			q.Window.Evaluations[i].ArcTo(seed).Distance))
		if t, ok := template[seed]; ok {
			answer.OnNewSeeds[t]++
		} else {
			answer.OnExisting++
		}
	}
	newSeeds := map[string]int{}
	for t, tmpl := range q.Templates {
		newSeeds[tmpl.Template] = plan.NewSeeds[t]
	}
	answer.ManagedSeedSets = setReplicas(q, plan.NewSeeds)
	if pending == 0 {
		answer.PendingForOthers = q.Snapshot.PendingForOthers(q.Window.Options.SchedulerName)
	}
	if err := model.VerifyCapacity(q, answer.Placements, newSeeds, unplaceable); err != nil {
		return nil, fmt.Errorf("capacity produced an answer that fails verification, refusing it: %w", err)
	}
	return answer, nil
}

// setReplicas sums the new seeds per ManagedSeedSet of their templates.
func setReplicas(q *model.CapacityPlanning, newSeeds []int) []SetReplicas {
	var out []SetReplicas
	for _, set := range q.Snapshot.ManagedSeedSets {
		r := SetReplicas{Set: set.Namespace + "/" + set.Name, Replicas: 1}
		if set.Spec.Replicas != nil {
			r.Replicas = *set.Spec.Replicas
		}
		for t, tmpl := range q.Templates {
			if tmpl.ManagedSeedSet == r.Set {
				r.Add += newSeeds[t]
			}
		}
		if r.Add > 0 {
			out = append(out, r)
		}
	}
	return out
}
