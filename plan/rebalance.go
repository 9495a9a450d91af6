package plan

import (
	"context"
	"fmt"

	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/solver"
)

// Rebalanced is a verified rebalancing plan.
type Rebalanced struct {
	// Problem is the rebalancing the moves answer.
	Problem *model.Rebalancing
	Moves   []model.Move
	// LowerBound is the fewest moves any plan needs (model.Rebalancing.LowerBound).
	LowerBound int
	// Unresolved counts, over all seeds, model.Unresolved.Count after the moves.
	Unresolved int
	// Optimal is true when CLP proved the moves optimal (then no plan resolves more, or as much with fewer moves).
	Optimal bool
	// Fallback says why the moves were found greedily (solver.FallbackTimeout, solver.FallbackRange), or "".
	Fallback string
	// Problems say, per seed left unresolved, why.
	Problems []model.SeedProblem
}

// Complete reports whether every seed ends at most at its limit.
func (r *Rebalanced) Complete() bool { return r.Unresolved == 0 }

// MoveLimits bound a rebalancing's moves (0: no bound).
type MoveLimits struct {
	// MaxMoves bounds the moves; MaxMovesPerSeed the moves off any one seed and onto any one seed.
	MaxMoves, MaxMovesPerSeed int
}

// Rebalance is the use case: the fewest moves of the snapshot's bound shoots that bring every seed to at most
// the target and empty the seeds to drain, within the limits, under the policy.
func Rebalance(ctx context.Context, snap *model.Snapshot, p Policy, target model.RebalanceOptions, limits MoveLimits) (*Rebalanced, error) {
	r, err := model.NewRebalancing(snap, p.Options, target)
	if err != nil {
		return nil, err
	}
	return SolveRebalancing(ctx, r, solver.Rebalancer{Weights: p.Weights, MaxMoves: limits.MaxMoves,
		MaxMovesPerSeed: limits.MaxMovesPerSeed, Timeout: p.Budget.Timeout})
}

// SolveRebalancing computes the moves of the rebalancing with the rebalancer and verifies them
// (model.VerifyMoves).
func SolveRebalancing(ctx context.Context, r *model.Rebalancing, rb solver.Rebalancer) (*Rebalanced, error) {
	answer, err := rb.Plan(ctx, rebalancingProblem(r))
	if err != nil {
		return nil, err
	}
	result := &Rebalanced{Problem: r, LowerBound: r.LowerBound(), Optimal: answer.Optimal, Fallback: answer.Fallback}
	for _, m := range answer.Moves {
		b := r.Shoots[m.Shoot]
		result.Moves = append(result.Moves, model.Move{Shoot: model.ShootKey(b.Shoot), From: r.Snapshot.Seeds[b.Seed].Name,
			To: r.Snapshot.Seeds[m.To.Seed].Name, Distance: m.To.Distance, Reason: b.MoveReason(), Detail: b.Leave.Detail,
			ShootVersion: model.VersionOf(b.Shoot)})
	}
	if err := scheduleMoves(r, result.Moves); err != nil {
		return nil, err
	}
	if err := model.VerifyMoves(r.Snapshot, r.Options, r.Target, result.Moves); err != nil {
		return nil, fmt.Errorf("rebalance produced moves that fail verification, refusing them: %w", err)
	}
	result.Problems = problems(r, rb, result.Moves)
	for _, p := range result.Problems {
		result.Unresolved += p.Count()
	}
	return result, nil
}

// scheduleMoves sets when each move may start: in its shoot's maintenance window, unless the options ignore them
// or give no time to count from.
func scheduleMoves(r *model.Rebalancing, moves []model.Move) error {
	if r.Target.IgnoreMaintenanceWindows || r.Target.Now.IsZero() {
		return nil
	}
	for i, m := range moves {
		start, err := model.MaintenanceStart(r.Snapshot.Shoot(m.Shoot), r.Target.Now)
		if err != nil {
			return fmt.Errorf("shoot %s: %w", m.Shoot, err)
		}
		if start.After(r.Target.Now) {
			moves[i].StartsAt = &start
		}
	}
	return nil
}

// rebalancingProblem is the rebalancing as the solver sees it.
func rebalancingProblem(r *model.Rebalancing) *solver.Rebalancing {
	p := &solver.Rebalancing{Seeds: make([]solver.LoadedSeed, len(r.Seeds)), Shoots: make([]solver.BoundShoot, len(r.Shoots))}
	most := len(r.Shoots)
	for i, l := range r.Seeds {
		allocatable, limited := model.Allocatable(r.Snapshot.Seeds[i])
		p.Seeds[i] = solver.LoadedSeed{Load: l.Staying(), Limit: room(l.Limit, l.Staying()+most), Room: room(l.Room, most), Allocatable: allocatable, Limited: limited}
	}
	for i, b := range r.Shoots {
		s := solver.BoundShoot{Seed: b.Seed, MustLeave: b.Leave.Required(), Unmovable: b.Unmovable != "", Destinations: make([]solver.Arc, len(b.Destinations))}
		for j, a := range b.Destinations {
			s.Destinations[j] = solverArc(a, solver.Rank{})
		}
		p.Shoots[i] = s
	}
	return p
}

// problems says, for every seed the moves leave unresolved, what keeps its shoots. A seed that keeps shoots that
// must leave is explained by what keeps those; a seed that stays above its limit, by what keeps any shoot still on
// it. What neither explains had a destination whose room other moves took.
func problems(r *model.Rebalancing, rb solver.Rebalancer, moves []model.Move) []model.SeedProblem {
	out := map[string]int{}
	for _, m := range moves {
		out[m.From]++
	}
	all, leaving := make([]model.SeedProblem, len(r.Seeds)), make([]model.SeedProblem, len(r.Seeds))
	hosted := make([]int, len(r.Seeds))
	for _, b := range r.Shoots {
		hosted[b.Seed]++
		countKept(&all[b.Seed], b)
		if b.Leave.Required() {
			countKept(&leaving[b.Seed], b)
		}
	}
	var problems []model.SeedProblem
	for i, u := range r.Unresolved(moves) {
		if u.Count() <= 0 {
			continue
		}
		name := r.Snapshot.Seeds[i].Name
		p, left := all[i], hosted[i]-out[name]
		if u.Stuck >= u.Above {
			p, left = leaving[i], u.Stuck
		}
		p.Seed, p.Limit, p.Unresolved, p.MaxMoveDistance = name, r.Seeds[i].Limit, u, r.Target.MaxMoveDistance
		p.WithoutBackup = !model.MigratesOff(r.Snapshot.Seeds[i])
		if rb.MaxMoves > 0 && len(moves) == rb.MaxMoves {
			p.MaxMoves = rb.MaxMoves
		}
		if rb.MaxMovesPerSeed > 0 && out[name] == rb.MaxMovesPerSeed {
			p.MaxMovesPerSeed = rb.MaxMovesPerSeed
		}
		p.NoRoom = p.MaxMoves == 0 && p.MaxMovesPerSeed == 0 && p.Unmovable+p.Stranded+p.Unmigratable+p.Blocked+p.Draining < left
		problems = append(problems, p)
	}
	return problems
}

// countKept counts a shoot by what keeps it on its seed, if anything does.
func countKept(p *model.SeedProblem, b model.BoundShoot) {
	switch {
	case b.Unmovable != "":
		p.Unmovable++
	case len(b.Destinations) > 0:
	case b.FullSeeds > 0:
		p.Blocked++
	case b.DrainingSeeds > 0:
		p.Draining++
	case b.UnmigratableSeeds > 0 && b.FarSeeds == 0: // a seed within reach but for the distance is said as such
		p.Unmigratable++
		p.BrokenRules |= b.BrokenRules
	default:
		p.Stranded++
	}
}
