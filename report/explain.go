package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"k8s.io/utils/ptr"

	"github.com/seedplan/seedplan/config"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
)

// Explanation is the decision for one pending shoot of a solved window as data (explain -o json|yaml): every
// seed with the predicate that excluded it or, for the seeds the shoot may go to, the terms of its cost.
type Explanation struct {
	Shoot    string         `json:"shoot"`
	Provider string         `json:"provider"`
	Region   string         `json:"region"`
	Strategy model.Strategy `json:"strategy"`
	// Purpose is the shoot's spec.purpose ("" when unset); testing overrides the strategy: seeds of the shoot's
	// provider in any region (gardener-scheduler.md §3).
	Purpose string `json:"purpose,omitempty"`
	Solver  string `json:"solver"`
	// Optimal and Fallback are the window's (WindowReport): with a fallback the gardener-scheduler's rule
	// decided, and the costs did not.
	Optimal  bool   `json:"optimal"`
	Fallback string `json:"fallback"`
	// TargetUtilization is the policy's target (0: none).
	TargetUtilization float64 `json:"targetUtilization"`
	// Seed is the seed the plan binds the shoot to ("" when unschedulable); Message then Gardener's message.
	Seed    string `json:"seed,omitempty"`
	Message string `json:"message,omitempty"`
	// Reason is the predicate behind Message, as schedule reports it ("" when the shoot is placed).
	Reason string `json:"reason,omitempty"`
	// OwnNetworks, for an unschedulable shoot, is what is wrong with its own networks whatever the seed: no seed of
	// any kind takes it while they are so ("" when nothing is).
	OwnNetworks string `json:"ownNetworks,omitempty"`
	// Trade says why a shoot placed outside its region left it ("" otherwise).
	Trade string `json:"trade,omitempty"`
	// Feasible counts the seeds the shoot may go to (the chosen one included); Rejections the others by the
	// predicate that excluded them, most first. Both count every seed, also under --seed.
	Feasible   int               `json:"feasible"`
	Rejections []model.SeedCount `json:"rejections"`
	Seeds      []SeedVerdict     `json:"seeds"`
}

// SeedVerdict is one seed as the decision saw it.
type SeedVerdict struct {
	Name string `json:"name"`
	// Verdict is chosen, feasible or rejected; Predicate and Reason say why a rejected seed was.
	Verdict   string `json:"verdict"`
	Predicate string `json:"predicate,omitempty"`
	Reason    string `json:"reason,omitempty"`
	// Cost is one more shoot's cost on a feasible seed (the shoot's own on the chosen one); Full says the seed
	// passes every predicate but has no room for the shoot after the window, so Gardener's capacity check rejects
	// it (Predicate Capacity).
	Cost *plan.CostTerms `json:"cost,omitempty"`
	Full bool            `json:"full,omitempty"`
	// Distance is the placement's region distance and DistanceSource where it comes from.
	Distance       int    `json:"distance,omitempty"`
	DistanceSource string `json:"distanceSource,omitempty"`
	// Hosted is the shoots on the seed before the window; Free its room then and Allocatable its limit (both
	// null without allocatable); Placed what the window put there.
	Hosted      int    `json:"hosted"`
	Free        *int   `json:"free"`
	Allocatable *int64 `json:"allocatable"`
	Placed      int    `json:"placed"`
}

// NewExplanation explains the decision for one pending shoot of a solved window.
func NewExplanation(o *plan.Outcome, shootKey string) (*Explanation, error) {
	index, err := pendingIndex(o.Window, shootKey)
	if err != nil {
		return nil, err
	}
	shoot, ev, snap := o.Window.Shoots[index], o.Window.Evaluations[index], o.Window.Snapshot
	e := &Explanation{Shoot: shootKey, Provider: shoot.Spec.Provider.Type, Region: shoot.Spec.Region,
		Strategy: o.Window.Options.Strategy, Purpose: string(ptr.Deref(shoot.Spec.Purpose, "")), Solver: o.Solver,
		Optimal: o.Optimal, Fallback: o.Fallback, TargetUtilization: o.Target, Seeds: []SeedVerdict{}}
	for _, p := range o.Plan.Placements {
		if p.Shoot == shootKey {
			e.Seed = p.Seed
		}
	}
	for _, u := range o.Plan.Unschedulable {
		if u.Shoot == shootKey {
			e.Message, e.Reason, e.OwnNetworks = u.Message, u.Reason, model.OwnNetworkConflicts(shoot)
		}
	}
	arcs := map[int]model.Arc{}
	for _, a := range ev.Arcs {
		arcs[a.Seed] = a
	}
	placed := o.Plan.PlacedPerSeed()
	for i, seed := range snap.Seeds {
		v := SeedVerdict{Name: seed.Name, Hosted: snap.Usage(seed.Name), Placed: placed[seed.Name]}
		if free := o.Window.Free[i]; free != model.Unlimited {
			v.Free = &free
		}
		if allocatable, ok := model.Allocatable(seed); ok {
			v.Allocatable = &allocatable
		}
		if arc, feasible := arcs[i]; feasible {
			v.judgeFeasible(o, arc, seed.Name == e.Seed)
		} else {
			r, _ := ev.Rejection(seed.Name)
			v.Verdict, v.Predicate, v.Reason = "rejected", r.Predicate, r.Reason
		}
		e.Seeds = append(e.Seeds, v)
	}
	if e.Seed != "" {
		e.Trade = regionTrade(o, index, e.Seed)
	}
	e.Feasible, e.Rejections = summarize(e.Seeds)
	return e, nil
}

// pendingIndex is where the shoot is among the window's; a shoot not in it is either not in the landscape or not
// pending, and the error says which, and why.
func pendingIndex(w *model.Window, shootKey string) (int, error) {
	for i, shoot := range w.Shoots {
		if model.ShootKey(shoot) == shootKey {
			return i, nil
		}
	}
	shoot := w.Snapshot.Shoot(shootKey)
	if shoot == nil {
		return -1, fmt.Errorf("shoot %s is not in the landscape", shootKey)
	}
	return -1, fmt.Errorf("shoot %s is not pending for scheduler %q: %s", shootKey, w.Options.SchedulerName,
		NotPending(shoot, w.Options.SchedulerName))
}

// judgeFeasible fills the verdict of a seed that passes every predicate, reached by arc: the chosen one, with the
// cost of its placement as the window made it; another with the cost the shoot would have added there after the
// window's placements; or, when the window left no room there for the shoot, rejected by Capacity, as Gardener's
// message for a shoot left unschedulable counts it.
func (v *SeedVerdict) judgeFeasible(o *plan.Outcome, arc model.Arc, chosen bool) {
	v.Verdict, v.Distance, v.DistanceSource = "feasible", arc.Distance, string(arc.Source)
	if chosen {
		v.Verdict = "chosen"
	}
	n, full := withTheShoot(o, arc, v.Placed, chosen)
	if full {
		v.Verdict, v.Predicate, v.Reason, v.Full = "rejected", model.PredicateCapacity, model.ReasonCapacity, true
		return
	}
	cost := o.PlacementCost(arc, n)
	v.Cost = &cost
}

// withTheShoot is how many shoots of the window arc's seed holds with the shoot there — the placed ones the plan
// put there, the shoot among them when chosen — and whether that is more than the seed had room for.
func withTheShoot(o *plan.Outcome, arc model.Arc, placed int, chosen bool) (n int, full bool) {
	n = placed + 1
	if chosen {
		n = placed
	}
	free := o.Window.Free[arc.Seed]
	return n, free != model.Unlimited && n > free
}

// summarize counts the feasible seeds and the rejected ones by predicate, most first.
func summarize(seeds []SeedVerdict) (feasible int, rejections []model.SeedCount) {
	counts := map[string]int{}
	for _, v := range seeds {
		if v.Verdict == "rejected" {
			counts[v.Predicate]++
		} else {
			feasible++
		}
	}
	return feasible, model.SeedCounts(counts)
}

// orDash is a number, or - when there is none (no allocatable limit).
func orDash[T int | int64](n *T) string {
	if n == nil {
		return "-"
	}
	return fmt.Sprint(*n)
}

// NotPending words the one reason the scheduler does not place the shoot (explain, apply -f).
func NotPending(shoot *gardencorev1beta1.Shoot, schedulerName string) string {
	switch model.WhyNotPending(shoot, schedulerName) {
	case model.NotPendingBound:
		return fmt.Sprintf("it is bound to seed %s (seedplan moves bound shoots only when rebalancing)", *shoot.Spec.SeedName)
	case model.NotPendingDeleting:
		return "it is being deleted"
	case model.NotPendingOtherScheduler:
		return fmt.Sprintf("its spec.schedulerName is %q (--scheduler-name %s explains it)", model.SchedulerName(shoot), model.SchedulerName(shoot))
	case model.NotPendingSelfHosted:
		return "it hosts its own control plane (a worker pool has controlPlane set): no scheduler places it"
	}
	return "it is pending, but not in the window"
}

// CheckSeed refuses a seed the outcome's landscape does not hold: one Focus could not narrow an explanation to.
func CheckSeed(o *plan.Outcome, seed string) error {
	if o.Window.Snapshot.Seed(seed) == nil {
		return fmt.Errorf("seed %s is not in the landscape", seed)
	}
	return nil
}

// Focus narrows the explanation to one seed of the landscape (explain --seed; CheckSeed refuses others); the
// summary still counts every seed.
func (e *Explanation) Focus(seed string) {
	e.Seeds = slices.DeleteFunc(e.Seeds, func(v SeedVerdict) bool { return v.Name != seed })
}

// Print writes the explanation as a table, YAML or JSON.
func (e *Explanation) Print(w io.Writer, out Output) error {
	return printAs(w, out, Formats(), e, e.names, func(t table) error { return e.printTable(Inert(w), t) })
}

// names is the seed the decision binds the shoot to (-o name), none when it is unschedulable.
func (e *Explanation) names() []string {
	if e.Seed == "" {
		return nil
	}
	return []string{"seed/" + e.Seed}
}

// NameWarning says why -o name names no seed, or "" when it names one: the shoot is unschedulable.
func (e *Explanation) NameWarning() string {
	if e.Seed != "" {
		return ""
	}
	return fmt.Sprintf("shoot %s is unschedulable, and -o name names no seed: %s", e.Shoot, e.Message)
}

// Explanations are the decisions for the pending shoots of one solved window that several were asked for
// (explain SHOOT SHOOT...), in the order asked: one after another and, as data, in a List — also when only one of
// them had an explanation, as kubectl prints a List for several names whatever it finds.
type Explanations []*Explanation

// explanationList is several explanations as data: a List of them, as kubectl's -o json|yaml of several objects.
type explanationList struct {
	Kind  string         `json:"kind"`
	Items []*Explanation `json:"items"`
}

// Print writes the explanations as tables, a blank line between two, or as a List in YAML or JSON.
func (es Explanations) Print(w io.Writer, out Output) error {
	return printAs(w, out, Formats(), explanationList{Kind: "List", Items: nonNil(es)}, es.names, func(t table) error {
		for i, e := range es {
			if i > 0 {
				if _, err := fmt.Fprintln(w); err != nil {
					return err
				}
			}
			if err := e.printTable(Inert(w), t); err != nil {
				return err
			}
		}
		return nil
	})
}

// names are the seeds the decisions bind the shoots to (-o name), in the shoots' order; an unschedulable shoot
// has none.
func (es Explanations) names() []string {
	var names []string
	for _, e := range es {
		names = append(names, e.names()...)
	}
	return names
}

// NameWarning says which shoots -o name names no seed for, and why, or "" when it names one for each.
func (es Explanations) NameWarning() string {
	var warnings []string
	for _, e := range es {
		if warning := e.NameWarning(); warning != "" {
			warnings = append(warnings, warning)
		}
	}
	return strings.Join(warnings, "; ")
}

func (e *Explanation) printTable(out io.Writer, t table) error {
	if t.headers {
		fmt.Fprintf(out, "Shoot %s: provider %s, region %s, %s, solver %s%s\n\n", e.Shoot, e.Provider, e.Region, e.strategy(), e.Solver,
			proofAfter(e.Optimal, e.Fallback))
	}
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	sec := sections{w: w}
	if len(e.Seeds) > 0 { // a landscape without seeds has no verdicts: no table, as the others are left out when empty
		sec.next()
		t.header(w, "SEED"+t.wideColumns("\tHOSTED\tFREE\tALLOCATABLE\tPLACED")+"\tVERDICT\tDETAIL")
	}
	for _, v := range e.Seeds {
		fmt.Fprint(w, v.Name, t.wideColumns(fmt.Sprintf("\t%d\t%s\t%s\t%d", v.Hosted, orDash(v.Free), orDash(v.Allocatable), v.Placed)))
		if v.Verdict == "rejected" {
			fmt.Fprintf(w, "\trejected by %s\t%s%s\n", v.Predicate, v.Reason, v.fullDetail())
			continue
		}
		verdict := "feasible"
		if v.Verdict == "chosen" {
			verdict = "CHOSEN"
		}
		fmt.Fprintf(w, "\t%s\t%s\n", verdict, v.feasibleDetail(e.TargetUtilization))
	}
	if !t.headers {
		return w.Flush()
	}
	if len(e.Seeds) > 0 { // nor counts of no seeds
		sec.next()
		fmt.Fprintln(w, "SEEDS\tVERDICT")
		fmt.Fprintf(w, "%d\tfeasible\n", e.Feasible)
		for _, r := range e.Rejections {
			fmt.Fprintf(w, "%d\trejected by %s\n", r.Seeds, r.Predicate)
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	decision := e.decision()
	if sec.started {
		decision = "\n" + decision
	}
	_, err := io.WriteString(out, decision)
	return err
}

// strategy names the strategy that found the shoot's candidates, or says that its purpose overrode it.
func (e *Explanation) strategy() string {
	if e.Purpose == string(gardencorev1beta1.ShootPurposeTesting) {
		return fmt.Sprintf("purpose testing (seeds of its provider in any region, not strategy %s)", e.Strategy)
	}
	return "strategy " + string(e.Strategy)
}

// decision is the explanation's last lines: where the shoot goes, or why nowhere, and what decided it when the
// costs shown did not.
func (e *Explanation) decision() string {
	var line string
	if e.Seed != "" {
		line = fmt.Sprintf("Decision: bind to seed %s.\n", e.Seed)
		if e.Trade != "" {
			line = fmt.Sprintf("Decision: bind to seed %s. %s\n", e.Seed, e.Trade)
		}
	} else {
		line = fmt.Sprintf("Decision: unschedulable: %s\n", e.Message) + e.roomBeforeStrategy()
		if e.OwnNetworks != "" {
			line += fmt.Sprintf("No seed of any kind takes the shoot while its own networks are invalid: %s\n", e.OwnNetworks)
		}
	}
	if rule := e.ruleDecided(); rule != "" {
		line += fmt.Sprintf("The gardener-scheduler's rule decided the window (%s); the costs above did not.\n", rule)
	}
	return line
}

// roomBeforeStrategy reconciles the table with Gardener's message when every candidate was full: Gardener checks
// room before it applies the strategy, so its message calls full also the seeds the table rejects by Strategy,
// which would not take the shoot with room either.
func (e *Explanation) roomBeforeStrategy() string {
	i := slices.IndexFunc(e.Rejections, func(c model.SeedCount) bool { return c.Predicate == model.PredicateStrategy })
	if e.Reason != model.PredicateCapacity || i < 0 {
		return ""
	}
	return fmt.Sprintf("Gardener checks for room before it applies the strategy, so its message also calls full the %s the strategy rejects above.\n",
		Counted(e.Rejections[i].Seeds, "seed", "seeds"))
}

// ruleDecided says why the gardener-scheduler's rule, not the LP's costs, decided the window: the greedy solver
// was asked for, or the LP fell back on it; "" when the LP decided.
func (e *Explanation) ruleDecided() string {
	switch {
	case e.Fallback != "":
		return proofOf(false, e.Fallback)
	case e.Solver == config.SolverGreedy:
		return "solver greedy"
	}
	return ""
}

// feasibleDetail says what placing the shoot on a seed it may use costs, and what the seed held before the window.
func (v *SeedVerdict) feasibleDetail(target float64) string {
	if v.Cost == nil { // an explanation made by hand, or read back, without the cost
		return fmt.Sprintf("distance %d (%s); %s", v.Distance, v.DistanceSource, v.room())
	}
	cost := fmt.Sprintf("cost %.0f = distance %.0f (%d, %s) + utilization %.0f", v.Cost.Total(), v.Cost.Distance, v.Distance, v.DistanceSource, v.Cost.Utilization)
	if v.Cost.Soft > 0 {
		cost += fmt.Sprintf(" + soft penalty %.0f", v.Cost.Soft)
	}
	if v.Cost.AboveTarget {
		cost += fmt.Sprintf(", above the %s target", model.FormatFraction(target))
	}
	return cost + "; " + v.room()
}

// fullDetail says, of a seed that had no room for the shoot after the window, how far it is and what filled it:
// the shoots before the window and those the window placed; "" for a seed a predicate rejected.
func (v *SeedVerdict) fullDetail() string {
	if !v.Full {
		return ""
	}
	return fmt.Sprintf("; distance %d (%s); %s", v.Distance, v.DistanceSource, v.room())
}

// room is what the seed held before the window and what the window placed there.
func (v *SeedVerdict) room() string {
	capacity := "no allocatable limit"
	if v.Free != nil && v.Allocatable != nil {
		capacity = fmt.Sprintf("free %d of %d before the window, %d placed by the window", *v.Free, *v.Allocatable, v.Placed)
	}
	return fmt.Sprintf("%s hosted, %s", Counted(v.Hosted, "shoot", "shoots"), capacity)
}

// regionTrade says, for a shoot placed outside its own region, why: none of its region's seeds may take it, those
// that may are full, or have no room at or below the target (the policy's rule), or the weights traded distance for
// utilization.
func regionTrade(o *plan.Outcome, index int, chosen string) string {
	shoot, ev, snap := o.Window.Shoots[index], o.Window.Evaluations[index], o.Window.Snapshot
	if snap.Seed(chosen).Spec.Provider.Region == shoot.Spec.Region {
		return ""
	}
	placed := o.Plan.PlacedPerSeed()
	var home []string
	room, roomAtTarget := false, false
	for _, a := range ev.Arcs {
		seed := snap.Seeds[a.Seed]
		if seed.Spec.Provider.Region != shoot.Spec.Region {
			continue
		}
		home = append(home, seed.Name)
		n, full := withTheShoot(o, a, placed[seed.Name], false)
		if full {
			continue
		}
		room = true
		roomAtTarget = roomAtTarget || !o.PlacementCost(a, n).AboveTarget
	}
	switch {
	case len(home) == 0:
		return fmt.Sprintf("It leaves its region %s: no seed there may take it.", shoot.Spec.Region)
	case !room: // full, not merely at the target: the reason whatever the target and wherever the shoot went
		return fmt.Sprintf("It leaves its region %s: the seeds there that pass its predicates (%s) are full after the window.", shoot.Spec.Region, strings.Join(home, ", "))
	case !roomAtTarget:
		return fmt.Sprintf("It leaves its region %s: the seeds there that pass its predicates (%s) have no room at or below the %s target after the window.",
			shoot.Spec.Region, strings.Join(home, ", "), model.FormatFraction(o.Target))
	}
	return fmt.Sprintf("It leaves its region %s although seeds there have room at or below the target (%s): the weights trade distance for utilization.",
		shoot.Spec.Region, strings.Join(home, ", "))
}
