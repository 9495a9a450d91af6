package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
)

// Explain prints, for one pending shoot of a solved window, every seed with the predicate that excluded it or,
// for the seeds it may go to, the terms of its cost; then the decision.
func Explain(out io.Writer, o *plan.Outcome, shootKey string) error {
	out = Inert(out)
	index := -1
	for i, shoot := range o.Window.Shoots {
		if model.ShootKey(shoot) == shootKey {
			index = i
			break
		}
	}
	if index < 0 {
		if o.Window.Snapshot.Shoot(shootKey) == nil {
			return fmt.Errorf("shoot %s is not in the landscape", shootKey)
		}
		return fmt.Errorf("shoot %s is not pending for scheduler %q: it has a seed, is being deleted, is self-hosted or has another schedulerName", shootKey, o.Window.Options.SchedulerName)
	}
	shoot, ev := o.Window.Shoots[index], o.Window.Evaluations[index]
	snap := o.Window.Snapshot

	chosen, message := "", ""
	for _, p := range o.Plan.Placements {
		if p.Shoot == shootKey {
			chosen = p.Seed
		}
	}
	for _, u := range o.Plan.Unschedulable {
		if u.Shoot == shootKey {
			message = u.Message
		}
	}

	fmt.Fprintf(out, "Shoot %s: provider %s, region %s, strategy %s, solver %s\n\n", shootKey, shoot.Spec.Provider.Type, shoot.Spec.Region, o.Window.Options.Strategy, o.Solver)
	arcs := map[int]model.Arc{}
	for _, a := range ev.Arcs {
		arcs[a.Seed] = a
	}
	placed := o.Plan.PlacedPerSeed()
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "SEED\tVERDICT\tDETAIL")
	for i, seed := range snap.Seeds {
		arc, feasible := arcs[i]
		if !feasible {
			r, _ := ev.Rejection(seed.Name)
			fmt.Fprintf(w, "%s\trejected by %s\t%s\n", seed.Name, r.Predicate, r.Reason)
			continue
		}
		verdict, n := "feasible", placed[seed.Name]+1
		if seed.Name == chosen {
			verdict, n = "CHOSEN", placed[seed.Name]
		}
		cost := o.PlacementCost(arc, n)
		costText := fmt.Sprintf("cost %.0f = distance %.0f (%d, %s) + utilization %.0f", cost.Total(), cost.Distance, arc.Distance, arc.Source, cost.Utilization)
		if cost.Soft > 0 {
			costText += fmt.Sprintf(" + soft penalty %.0f (%d)", cost.Soft, arc.SoftViolations)
		}
		if cost.AboveTarget {
			costText += fmt.Sprintf(", above the %.2f target", o.Target)
		}
		if free := o.Window.Free[i]; free != model.Unlimited && n > free {
			costText = fmt.Sprintf("full after the window; distance %d (%s)", arc.Distance, arc.Source)
		}
		capacity := "no allocatable limit"
		if a, ok := model.Allocatable(seed); ok {
			capacity = fmt.Sprintf("free %d of %d before the window, %d placed by the window", o.Window.Free[i], a, placed[seed.Name])
		}
		fmt.Fprintf(w, "%s\t%s\t%s; %d shoots hosted, %s\n", seed.Name, verdict, costText, snap.Usage(seed.Name), capacity)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if chosen != "" {
		_, err := fmt.Fprintf(out, "\nDecision: bind to seed %s.%s\n", chosen, regionTrade(o, index, chosen))
		return err
	}
	_, err := fmt.Fprintf(out, "\nDecision: unschedulable: %s\n", message)
	return err
}

// regionTrade says, for a shoot placed outside its own region, why: its region's seeds it may use had no room at
// or below the target (the policy's rule), none may take it, or the weights traded distance for utilization.
func regionTrade(o *plan.Outcome, index int, chosen string) string {
	shoot, ev, snap := o.Window.Shoots[index], o.Window.Evaluations[index], o.Window.Snapshot
	if snap.Seed(chosen).Spec.Provider.Region == shoot.Spec.Region {
		return ""
	}
	placed := o.Plan.PlacedPerSeed()
	var home []string
	roomAtTarget := false
	for _, a := range ev.Arcs {
		seed := snap.Seeds[a.Seed]
		if seed.Spec.Provider.Region != shoot.Spec.Region {
			continue
		}
		home = append(home, seed.Name)
		if !o.PlacementCost(a, placed[seed.Name]+1).AboveTarget && (o.Window.Free[a.Seed] == model.Unlimited || placed[seed.Name] < o.Window.Free[a.Seed]) {
			roomAtTarget = true
		}
	}
	switch {
	case len(home) == 0:
		return fmt.Sprintf(" It leaves its region %s: no seed there may take it.", shoot.Spec.Region)
	case !roomAtTarget && o.Target > 0:
		return fmt.Sprintf(" It leaves its region %s: the seeds there it may use (%s) have no room at or below the %.2f target after the window.",
			shoot.Spec.Region, strings.Join(home, ", "), o.Target)
	case !roomAtTarget:
		return fmt.Sprintf(" It leaves its region %s: the seeds there it may use (%s) are full after the window.", shoot.Spec.Region, strings.Join(home, ", "))
	}
	return fmt.Sprintf(" It leaves its region %s although seeds there have room at or below the target (%s): the weights trade distance for utilization.",
		shoot.Spec.Region, strings.Join(home, ", "))
}
