package model

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// PredicateMigration names the gardener-apiserver's extra rules for moving a bound shoot to another seed.
const PredicateMigration = "Migration"

// LeaveReason is why a shoot moves, as moves report it.
type LeaveReason string

// The reasons a shoot has to leave its seed.
const (
	LeaveOverloaded LeaveReason = "overloaded"
	LeaveDrain      LeaveReason = "drain"
	LeaveUnusable   LeaveReason = "unusable"
	LeaveNoExecute  LeaveReason = "NoExecute"
)

// LeaveReasons are every reason a move may report.
func LeaveReasons() []LeaveReason {
	return []LeaveReason{LeaveOverloaded, LeaveDrain, LeaveUnusable, LeaveNoExecute}
}

// Leave says why shoots must leave a seed whatever its load: the move reason and what exactly (which condition,
// which taint). The zero Leave means they need not.
type Leave struct {
	Reason LeaveReason
	Detail string
}

// Required reports whether the shoots must leave.
func (l Leave) Required() bool { return l.Reason != "" }

// DefaultUnusableGrace is how long a seed must have been unhealthy before rebalancing evacuates it: kube's
// default for evicting pods off a not-ready node. A gardenlet restart must not migrate every shoot of its seed.
const DefaultUnusableGrace = 5 * time.Minute

// RebalanceOptions say what a balanced landscape is.
type RebalanceOptions struct {
	// TargetUtilization is the highest usage/allocatable a seed may end at, in (0, 1].
	TargetUtilization float64
	// Drain names seeds to be emptied.
	Drain []string
	// UnusableGrace is how long a seed must have been unhealthy (its condition's lastTransitionTime, or its
	// creation when it never reported) before its shoots must leave; Now is when the landscape was read (zero:
	// no grace, as for a landscape from files of unknown age). A seed being deleted is evacuated at once.
	UnusableGrace time.Duration
	Now           time.Time
	// MaxMoveDistance, when set, bounds the region distance of a move (MoveDistance): for landscapes that rely on
	// live migration, which only works between seeds close to each other.
	MaxMoveDistance *int
	// IgnoreMaintenanceWindows lets moves start outside the shoots' maintenance windows.
	IgnoreMaintenanceWindows bool
	// Triggers are the reasons besides Drain that make shoots move — LeaveOverloaded, LeaveNoExecute,
	// LeaveUnusable; nil means all of them.
	Triggers []LeaveReason
}

// AllTriggers are the reasons that may make shoots move besides an explicit drain.
func AllTriggers() []LeaveReason {
	return []LeaveReason{LeaveOverloaded, LeaveNoExecute, LeaveUnusable}
}

// triggers reports whether the reason may make shoots move.
func (o RebalanceOptions) triggers(reason LeaveReason) bool {
	return o.Triggers == nil || slices.Contains(o.Triggers, reason)
}

// AnnotationRebalance set to "false" on a shoot keeps rebalancing from ever moving it.
const AnnotationRebalance = "seedplan.gardener.cloud/rebalance"

// Validate checks the options against the snapshot.
func (o RebalanceOptions) Validate(snap *Snapshot) error {
	var errs []error
	if err := CheckTargetUtilization(o.TargetUtilization); err != nil {
		errs = append(errs, err)
	}
	for _, name := range o.Drain {
		if snap.Seed(name) == nil {
			errs = append(errs, fmt.Errorf("seed %q to drain does not exist", name))
		}
	}
	for i := range Repeats(o.Drain) { // the seeds to cordon would be miscounted too
		errs = append(errs, fmt.Errorf("seed %q to drain is listed twice", o.Drain[i]))
	}
	return errors.Join(errs...)
}

// CheckTargetUtilization refuses a target utilization outside (0, 1].
func CheckTargetUtilization(target float64) error {
	if !(target > 0 && target <= 1) {
		return fmt.Errorf("target utilization %v is not in (0, 1]", target)
	}
	return nil
}

// TargetLimit is the most shoots a seed may host at the target utilization: ⌊target × allocatable⌋, or Unlimited
// for a seed without allocatable.
func TargetLimit(seed *gardencorev1beta1.Seed, target float64) int {
	allocatable, ok := Allocatable(seed)
	if !ok {
		return Unlimited
	}
	// The epsilon keeps 0.8 × 10 at 8 despite binary fractions. Near 2^63 the product rounds up to 2^63, which
	// no int holds: the limit is then the allocatable itself.
	limit := max(math.Floor(target*float64(allocatable)+1e-9), 0)
	if limit >= float64(allocatable) {
		return int(allocatable)
	}
	return int(limit)
}

// SeedLoad is a seed as rebalancing sees it.
type SeedLoad struct {
	// Load is the seed's usage as Gardener counts it (SeedUsage).
	Load int
	// MigratingAway counts the shoots whose control plane is moving off the seed (status.seedName is the seed,
	// spec.seedName another): they are in Load until their migration finishes, and in its room, but not in its
	// excess.
	MigratingAway int
	// Limit is TargetLimit (0 for a seed to drain).
	Limit int
	// Drain is why the seed must be emptied (LeaveDrain or LeaveUnusable); zero when it need not be.
	Drain Leave
	// Room is how many shoots the seed may receive: Limit − Load, at least 0, Unlimited without allocatable;
	// 0 for a seed to drain.
	Room int
	// Grace is set for an unhealthy seed whose shoots do not have to leave yet.
	Grace *SeedGrace
}

// SeedGrace is an unhealthy seed inside its grace period.
type SeedGrace struct {
	// Reason is what is wrong, Since since when; Left is the time until its shoots must leave.
	Reason string
	Since  time.Time
	Left   time.Duration
}

// Staying is the shoots the seed keeps once the migrations off it have finished: what it sheds already is no
// excess to move other shoots for, and a second run while they migrate moves nothing more.
func (l SeedLoad) Staying() int { return l.Load - l.MigratingAway }

// Excess is how far the seed is above its limit, once the migrations off it have finished.
func (l SeedLoad) Excess() int {
	if l.Limit == Unlimited {
		return 0
	}
	return max(l.Staying()-l.Limit, 0)
}

// BoundShoot is a shoot on a seed, as rebalancing sees it.
type BoundShoot struct {
	Shoot *gardencorev1beta1.Shoot
	// Seed is the index of its seed (spec.seedName).
	Seed int
	// Leave is why the shoot must leave its seed whatever the load (zero when it may stay): its seed is drained
	// or not usable, or has a NoExecute taint the shoot does not tolerate.
	Leave Leave
	// Unmovable is why the shoot cannot be moved at all, "" when it can.
	Unmovable string
	// Destinations are the seeds the shoot may move to: every predicate of the gardener-scheduler, its strategy
	// and the gardener-apiserver's migration rules pass, and the seed has room at or below its target; how much is
	// the solver's. Distance is the move's distance (MoveDistance), ascending by seed index.
	Destinations []Arc
	// FullSeeds counts the seeds that pass the same rules but are already at their target: where the shoot could
	// go with more capacity. DrainingSeeds counts those that pass them but are being emptied themselves (Drain).
	FullSeeds, DrainingSeeds int
	// FarSeeds counts the seeds that pass them but lie beyond MaxMoveDistance; UnmigratableSeeds those that pass
	// every predicate and the strategy but not the migration rules (MigrationReason), BrokenRules the rules those
	// moves would break.
	FarSeeds, UnmigratableSeeds int
	BrokenRules                 MigrationRules
}

// MoveReason is why the shoot would move: the reason it must leave, or its seed's overload.
func (b BoundShoot) MoveReason() LeaveReason {
	if b.Leave.Required() {
		return b.Leave.Reason
	}
	return LeaveOverloaded
}

// Rebalancing is the problem of moving bound shoots so that every seed ends at most at its target: the seeds'
// loads and limits and every bound shoot with where it may go. Like a Window it is computed once and shared by
// every solver and the checker.
type Rebalancing struct {
	Snapshot *Snapshot
	Options  Options
	Target   RebalanceOptions
	// Seeds by index.
	Seeds []SeedLoad
	// Shoots are the bound shoots (spec.seedName names an existing seed), by namespace/name.
	Shoots []BoundShoot
}

// NewRebalancing evaluates every bound shoot of the snapshot for a move.
func NewRebalancing(snap *Snapshot, opts Options, target RebalanceOptions) (*Rebalancing, error) {
	opts = opts.WithDefaults()
	if err := target.Validate(snap); err != nil {
		return nil, err
	}
	r := &Rebalancing{Snapshot: snap, Options: opts, Target: target, Seeds: make([]SeedLoad, len(snap.Seeds))}
	for i, seed := range snap.Seeds {
		r.Seeds[i] = seedLoad(snap, seed, target)
	}
	var movable []*gardencorev1beta1.Shoot
	for _, shoot := range snap.Shoots {
		if from, _, migrating := Migration(shoot); migrating && from != "" {
			if i := snap.SeedIndex(from); i >= 0 {
				r.Seeds[i].MigratingAway++
			}
		}
		seed := snap.SeedIndex(deref(shoot.Spec.SeedName))
		if seed < 0 {
			continue
		}
		b := BoundShoot{Shoot: shoot, Seed: seed, Unmovable: UnmovableReason(shoot, opts.SchedulerName)}
		if drain := r.Seeds[seed].Drain; drain.Required() {
			b.Leave = drain
		} else if reason := snap.NoExecuteReason(shoot); reason != "" && target.triggers(LeaveNoExecute) {
			b.Leave = Leave{Reason: LeaveNoExecute, Detail: reason}
		}
		if b.Unmovable == "" {
			movable = append(movable, shoot)
		}
		r.Shoots = append(r.Shoots, b)
	}
	if err := r.addDestinations(movable); err != nil {
		return nil, err
	}
	return r, nil
}

// seedLoad is a seed's load, limit and room under the target; a seed to drain has neither limit nor room.
func seedLoad(snap *Snapshot, seed *gardencorev1beta1.Seed, target RebalanceOptions) SeedLoad {
	load := SeedLoad{Load: snap.Usage(seed.Name), Limit: TargetLimit(seed, target.TargetUtilization)}
	reason, since := seedHealthReason(seed)
	if !target.triggers(LeaveUnusable) {
		reason = ""
	}
	switch {
	case slices.Contains(target.Drain, seed.Name):
		load.Drain = Leave{Reason: LeaveDrain, Detail: "the seed is drained (--drain, --drain-selector)"}
	case seed.DeletionTimestamp != nil && target.triggers(LeaveUnusable):
		load.Drain = Leave{Reason: LeaveUnusable, Detail: "seed is being deleted"}
	case reason != "" && (target.Now.IsZero() || target.Now.Sub(since) >= target.UnusableGrace):
		load.Drain = Leave{Reason: LeaveUnusable, Detail: unusableDetail(reason, since)}
	case reason != "":
		load.Grace = &SeedGrace{Reason: reason, Since: since, Left: target.UnusableGrace - target.Now.Sub(since)}
	}
	// No excess to shed, and still no room above the target, when overloaded seeds are not to shed or when the
	// seed's allocatable is no whole number of shoots: a status that does not say how many shoots the seed takes
	// moves none off it (MalformedAllocatables warns of it).
	if load.Limit != Unlimited && (!target.triggers(LeaveOverloaded) || !allocatableAsWritten(seed)) {
		load.Limit = max(load.Limit, load.Load)
	}
	// Unusable seeds need no rule here: the chain never offers them as destinations.
	switch {
	case load.Drain.Required():
		load.Room, load.Limit = 0, 0
	case load.Limit == Unlimited:
		load.Room = Unlimited
	default:
		load.Room = max(load.Limit-load.Load, 0)
	}
	return load
}

// unusableDetail says what is wrong with an unhealthy seed and since when, if that is known: a seed read from a
// file may carry neither a condition's transition time nor its own creation.
func unusableDetail(reason string, since time.Time) string {
	if since.IsZero() {
		return reason
	}
	return reason + " since " + since.UTC().Format(time.RFC3339)
}

// addDestinations sets where each movable shoot (given in the order of r.Shoots) may go: the chain and the
// strategy see a bound shoot as they would see it pending, then the migration rules and the destinations' room
// apply. Shoots with the same evaluation, seed and domain share their destinations.
func (r *Rebalancing) addDestinations(movable []*gardencorev1beta1.Shoot) error {
	snap := r.Snapshot
	w, err := NewWindow(snap, r.Options, movable)
	if err != nil {
		return err
	}
	type destinationsKey struct {
		ev     *Evaluation
		from   int
		domain string
	}
	type destinations struct {
		arcs                              []Arc
		full, draining, far, unmigratable int
		broken                            MigrationRules
	}
	cache := map[destinationsKey]destinations{}
	next := 0
	for i := range r.Shoots {
		b := &r.Shoots[i]
		if b.Unmovable != "" {
			continue
		}
		ev := w.Evaluations[next]
		next++
		if ev.Err != nil || ev.StrategyErr != nil {
			continue
		}
		key := destinationsKey{ev: ev, from: b.Seed, domain: shootDomain(b.Shoot)}
		d, ok := cache[key]
		if !ok {
			from := snap.Seeds[b.Seed]
			for _, a := range ev.Arcs {
				to := snap.Seeds[a.Seed]
				migration, _ := checkMigration(b.Shoot, from, to)
				distance := snap.MoveDistance(ev.Request, from, to)
				switch {
				case a.Seed == b.Seed:
				case migration != migrationAllowed:
					d.unmigratable++
					d.broken |= migration.rule()
				case r.Target.tooFar(distance):
					d.far++
				case r.Seeds[a.Seed].Drain.Required():
					d.draining++
				case r.Seeds[a.Seed].Room == 0:
					d.full++
				default:
					a.Distance = distance
					d.arcs = append(d.arcs, a)
				}
			}
			cache[key] = d
		}
		b.Destinations, b.FullSeeds, b.DrainingSeeds, b.FarSeeds, b.UnmigratableSeeds = d.arcs, d.full, d.draining, d.far, d.unmigratable
		b.BrokenRules = d.broken
	}
	return nil
}

// tooFar reports whether a move of the distance is beyond MaxMoveDistance.
func (o RebalanceOptions) tooFar(distance int) bool {
	return o.MaxMoveDistance != nil && distance > *o.MaxMoveDistance
}

// LowerBound is the fewest moves that can bring every seed to its limit: for every seed its excess over the
// limit, or the shoots that must leave it, whichever is more.
func (r *Rebalancing) LowerBound() int {
	leaving := make([]int, len(r.Seeds))
	for _, b := range r.Shoots {
		if b.Leave.Required() {
			leaving[b.Seed]++
		}
	}
	bound := 0
	for i, s := range r.Seeds {
		bound += max(s.Excess(), leaving[i])
	}
	return bound
}

// Unresolved is what moves leave unresolved on one seed.
type Unresolved struct {
	// Above is how far the seed stays above its limit after every move out of and into it (0 when it is not).
	Above int
	// Stuck counts the shoots that had to leave the seed and did not.
	Stuck int
}

// Count is how many shoots must still leave the seed to resolve it: the larger part, since a stuck shoot that
// leaves also lowers the load.
func (u Unresolved) Count() int { return max(u.Above, u.Stuck) }

// Unresolved is, per seed, what the moves leave unresolved.
func (r *Rebalancing) Unresolved(moves []Move) []Unresolved {
	load := make([]int, len(r.Seeds))
	for i, l := range r.Seeds {
		load[i] = l.Staying()
	}
	moved := map[string]bool{}
	for _, m := range moves {
		moved[m.Shoot] = true
		if from := r.Snapshot.SeedIndex(m.From); from >= 0 {
			load[from]--
		}
		if to := r.Snapshot.SeedIndex(m.To); to >= 0 {
			load[to]++
		}
	}
	unresolved := make([]Unresolved, len(r.Seeds))
	for _, b := range r.Shoots {
		if b.Leave.Required() && !moved[ShootKey(b.Shoot)] {
			unresolved[b.Seed].Stuck++
		}
	}
	for i, l := range r.Seeds {
		if l.Limit != Unlimited {
			unresolved[i].Above = max(load[i]-l.Limit, 0)
		}
	}
	return unresolved
}

// SeedDrainReason says why shoots must leave a seed on their own account: it is being deleted or is no longer
// healthy (spec §2.1). A seed that is merely invisible for scheduling keeps its shoots: visibility closes it to
// new shoots only.
func SeedDrainReason(seed *gardencorev1beta1.Seed) string {
	if seed.DeletionTimestamp != nil {
		return "seed is being deleted"
	}
	reason, _ := seedHealthReason(seed)
	return reason
}

// Migration says whether the shoot's control plane is moving between seeds: from its binding to another seed
// (status.seedName still the old seed, from) through the Migrate operation until the Restore on the new seed (to,
// spec.seedName) has succeeded. from is "" once the control plane is being restored on the new seed.
func Migration(shoot *gardencorev1beta1.Shoot) (from, to string, migrating bool) {
	spec, status := deref(shoot.Spec.SeedName), deref(shoot.Status.SeedName)
	if status != "" && status != spec {
		return status, spec, true
	}
	op := shoot.Status.LastOperation
	migrating = op != nil && (op.Type == gardencorev1beta1.LastOperationTypeMigrate ||
		op.Type == gardencorev1beta1.LastOperationTypeRestore && op.State != gardencorev1beta1.LastOperationStateSucceeded)
	return "", spec, migrating
}

// UnmovableReason says why a bound shoot must not be moved by seedplan, or "" when it may be: it is being
// deleted, its control plane is already migrating, another scheduler handles it, or it hosts its own control plane.
func UnmovableReason(shoot *gardencorev1beta1.Shoot, schedulerName string) string {
	from, to, migrating := Migration(shoot)
	op := shoot.Status.LastOperation
	name := SchedulerName(shoot)
	switch {
	case shoot.DeletionTimestamp != nil:
		return "the shoot is being deleted"
	case migrating && from != "":
		return fmt.Sprintf("the shoot's control plane is already moving from %s to %s", from, to)
	case migrating:
		return fmt.Sprintf("the shoot is in a %s operation (%s)", op.Type, op.State)
	case name != schedulerName:
		return fmt.Sprintf("the shoot is scheduled by %q, not %q", name, schedulerName)
	case hostsOwnControlPlane(shoot):
		return "the shoot hosts its own control plane"
	case shoot.Annotations[AnnotationRebalance] == "false":
		return "the shoot opts out of rebalancing (" + AnnotationRebalance + `: "false")`
	}
	return ""
}

// MigrationReason is the gardener-apiserver's ShootValidator rule for changing a bound shoot's seed through the
// binding subresource (control plane migration), beyond the scheduling predicates: both seeds need backup, the
// same internal domain, and a shoot using a default domain of the old seed needs it on the new one. It returns
// Gardener's reason, or "" when the move is allowed.
func MigrationReason(shoot *gardencorev1beta1.Shoot, from, to *gardencorev1beta1.Seed) string {
	switch problem, domain := checkMigration(shoot, from, to); problem {
	case migrationWithoutOldBackup:
		return fmt.Sprintf("cannot change seed name because backup is not configured for old seed %q", from.Name)
	case migrationWithoutNewBackup:
		return fmt.Sprintf("cannot change seed name because backup is not configured for seed %q", to.Name)
	case migrationChangesInternalDomain:
		return fmt.Sprintf("cannot change seed name because internal domain would change from %q to %q", internalDomain(from), internalDomain(to))
	case migrationLosesDefaultDomain:
		return fmt.Sprintf("cannot reschedule shoot %q to seed %q because the shoot uses the default domain %q which is not supported by the new seed", shoot.Name, to.Name, domain)
	}
	return ""
}

// MigratesOff reports whether the gardener-apiserver lets any shoot's control plane migrate off the seed: only
// when the seed has backup configured (MigrationReason's first rule).
func MigratesOff(seed *gardencorev1beta1.Seed) bool {
	return seed.Spec.Backup != nil
}

// MigrationRules is a set of the gardener-apiserver's rules for moving a shoot's control plane (MigrationReason),
// as moves break them.
type MigrationRules uint8

const (
	// MigrationNeedsBackup: both seeds have backup.
	MigrationNeedsBackup MigrationRules = 1 << iota
	// MigrationKeepsInternalDomain: both seeds have the same internal domain.
	MigrationKeepsInternalDomain
	// MigrationKeepsDefaultDomain: the new seed has the seed default domain the shoot uses.
	MigrationKeepsDefaultDomain
)

// Has reports whether the set holds every rule of rules.
func (s MigrationRules) Has(rules MigrationRules) bool { return s&rules == rules }

// migrationProblem is which rule of MigrationReason a move breaks.
type migrationProblem int

const (
	migrationAllowed migrationProblem = iota
	migrationWithoutOldBackup
	migrationWithoutNewBackup
	migrationChangesInternalDomain
	migrationLosesDefaultDomain
)

// rule is the rule the problem breaks (none for migrationAllowed).
func (p migrationProblem) rule() MigrationRules {
	switch p {
	case migrationWithoutOldBackup, migrationWithoutNewBackup:
		return MigrationNeedsBackup
	case migrationChangesInternalDomain:
		return MigrationKeepsInternalDomain
	case migrationLosesDefaultDomain:
		return MigrationKeepsDefaultDomain
	}
	return 0
}

// checkMigration decides MigrationReason's rules without building the message (NewRebalancing asks for every
// pair of seeds); for migrationLosesDefaultDomain it also returns the domain.
func checkMigration(shoot *gardencorev1beta1.Shoot, from, to *gardencorev1beta1.Seed) (migrationProblem, string) {
	switch {
	case !MigratesOff(from):
		return migrationWithoutOldBackup, ""
	case to.Spec.Backup == nil:
		return migrationWithoutNewBackup, ""
	case internalDomain(from) != internalDomain(to):
		return migrationChangesInternalDomain, ""
	}
	domain := shootDomain(shoot)
	if domain == "" {
		return migrationAllowed, ""
	}
	for _, d := range from.Spec.DNS.Defaults {
		if !strings.HasSuffix(domain, "."+d.Domain) {
			continue
		}
		if slices.ContainsFunc(to.Spec.DNS.Defaults, func(n gardencorev1beta1.SeedDNSProviderConfig) bool { return n.Domain == d.Domain }) {
			return migrationAllowed, ""
		}
		return migrationLosesDefaultDomain, d.Domain
	}
	return migrationAllowed, ""
}

func internalDomain(seed *gardencorev1beta1.Seed) string {
	if seed.Spec.DNS.Internal == nil {
		return ""
	}
	return seed.Spec.DNS.Internal.Domain
}

func shootDomain(shoot *gardencorev1beta1.Shoot) string {
	if shoot.Spec.DNS == nil {
		return ""
	}
	return deref(shoot.Spec.DNS.Domain)
}

// MoveDistance is the region distance between two seeds for a shoot: 0 within a region, else the shoot's region
// ConfigMap's distance from the source region when it lists the destination, else Gardener's Levenshtein distance
// between the two regions. Near moves can be live migrations; far ones cost the shoot's users latency.
func (s *Snapshot) MoveDistance(req *Request, from, to *gardencorev1beta1.Seed) int {
	fromRegion, toRegion := from.Spec.Provider.Region, to.Spec.Provider.Region
	if fromRegion == toRegion {
		return 0
	}
	if req.RegionConfig != nil {
		if parsed := s.regionDistances[req.RegionConfig.Name][fromRegion]; parsed.err == nil {
			if d, ok := parsed.distances[toRegion]; ok {
				return d
			}
		}
	}
	return LevenshteinDistance(toRegion, fromRegion)
}

// Move changes one bound shoot's seed.
type Move struct {
	// Shoot is namespace/name.
	Shoot string `json:"shoot"`
	From  string `json:"from"`
	To    string `json:"to"`
	// Distance is the move's region distance (MoveDistance).
	Distance int `json:"distance"`
	// Reason is why the shoot moves: LeaveOverloaded, LeaveDrain, LeaveUnusable or LeaveNoExecute; Detail says
	// exactly what (which condition since when, which taint).
	Reason LeaveReason `json:"reason"`
	Detail string      `json:"detail,omitempty"`
	// StartsAt is when the move may start: the next begin of the shoot's maintenance window when it is closed at
	// planning time (see MaintenanceStart); nil when it may start at once.
	StartsAt *time.Time `json:"startsAt,omitempty"`
	// ShootVersion is the shoot's when the move was planned (from a cluster): `seedplan apply` and a paced
	// `rebalance --apply` move only this version, or one changed since in nothing but its status and metadata (a
	// gardenlet's reconcile, hourly).
	ShootVersion
}

// VerifyMoves checks moves against the snapshot independently of the Rebalancing and of any solver: every moved
// shoot exists, is on the seed it moves from, may be moved, moves once; its new seed passes every predicate of
// the chain, the strategy's region rule and the migration rules, evaluated afresh, at the distance the move
// states; no seed that receives shoots is drained, and none ends above its target limit even before the moved
// shoots have left their old seeds (that is how the gardener-apiserver counts during a migration). It returns
// every violation found, joined.
func VerifyMoves(snap *Snapshot, opts Options, target RebalanceOptions, moves []Move) error {
	opts = opts.WithDefaults()
	var violations []error
	seen := map[string]bool{}
	received := map[string]int{}
	evaluator := newVerifyingEvaluator(snap, opts)
	for _, m := range moves {
		if seen[m.Shoot] {
			violations = append(violations, fmt.Errorf("shoot %s: moved more than once", m.Shoot))
			continue
		}
		seen[m.Shoot] = true
		shoot, from, to := snap.Shoot(m.Shoot), snap.Seed(m.From), snap.Seed(m.To)
		switch {
		case shoot == nil:
			violations = append(violations, fmt.Errorf("shoot %s: not in the landscape", m.Shoot))
			continue
		case from == nil || to == nil:
			violations = append(violations, fmt.Errorf("shoot %s: seed %q or %q does not exist", m.Shoot, m.From, m.To))
			continue
		case deref(shoot.Spec.SeedName) != m.From:
			violations = append(violations, fmt.Errorf("shoot %s: is on seed %q, not %q", m.Shoot, deref(shoot.Spec.SeedName), m.From))
			continue
		case m.From == m.To:
			violations = append(violations, fmt.Errorf("shoot %s: moves to the seed it is on", m.Shoot))
			continue
		}
		if reason := UnmovableReason(shoot, opts.SchedulerName); reason != "" {
			violations = append(violations, fmt.Errorf("shoot %s: must not be moved: %s", m.Shoot, reason))
			continue
		}
		received[m.To]++
		if reason := MigrationReason(shoot, from, to); reason != "" {
			violations = append(violations, fmt.Errorf("shoot %s → seed %s: violates predicate %s: %s", m.Shoot, m.To, PredicateMigration, reason))
		}
		if err := evaluator.placementViolation(shoot, to); err != nil {
			violations = append(violations, err)
		} else if req, err := snap.NewRequest(shoot, opts); err == nil {
			violations = append(violations, distanceViolations(m, snap.MoveDistance(req, from, to), target)...)
		}
	}
	for _, seed := range snap.Seeds {
		n := received[seed.Name]
		if n == 0 {
			continue
		}
		if slices.Contains(target.Drain, seed.Name) || SeedDrainReason(seed) != "" {
			violations = append(violations, fmt.Errorf("seed %s: is drained but receives %d shoots", seed.Name, n))
		}
		if limit := TargetLimit(seed, target.TargetUtilization); limit != Unlimited && snap.Usage(seed.Name)+n > limit {
			violations = append(violations, fmt.Errorf("seed %s: would end above its target: %d shoots hosted + %d moved in > %d (target %v of allocatable)",
				seed.Name, snap.Usage(seed.Name), n, limit, target.TargetUtilization))
		}
	}
	return errors.Join(violations...)
}

// distanceViolations are what is wrong with the distance of a move that is d far: beyond the target's bound, or
// not the distance the move states (reviewed when the region ConfigMap said otherwise).
func distanceViolations(m Move, d int, target RebalanceOptions) []error {
	var violations []error
	if target.tooFar(d) {
		violations = append(violations, fmt.Errorf("shoot %s → seed %s: moves %d far, beyond the bound of %d", m.Shoot, m.To, d, *target.MaxMoveDistance))
	}
	if d != m.Distance {
		violations = append(violations, fmt.Errorf("shoot %s → seed %s: moves %d far, not the %d the move states", m.Shoot, m.To, d, m.Distance))
	}
	return violations
}

// SeedProblem says why a seed stays above its limit, or keeps shoots that must leave, after the moves: counts of
// its shoots by what keeps them, and the caps that were reached. Reports word it.
type SeedProblem struct {
	// Seed is the seed's name, Limit its limit.
	Seed  string
	Limit int
	Unresolved
	// Unmovable counts its shoots that must not be moved (UnmovableReason).
	Unmovable int
	// Stranded counts its movable shoots that no other seed may take by the predicates and migration rules (and
	// within MaxMoveDistance, when that bounds the moves); Unmigratable those that only the migration rules keep
	// from seeds that pass every predicate; WithoutBackup says no migration leaves the seed at all, as it has no
	// backup (MigratesOff).
	Stranded, Unmigratable int
	// BrokenRules are the migration rules that keep the Unmigratable shoots.
	BrokenRules     MigrationRules
	WithoutBackup   bool
	MaxMoveDistance *int
	// Blocked counts its movable shoots that may only move to seeds already at their target; Draining those that
	// may only move to seeds being emptied themselves.
	Blocked, Draining int
	// MaxMoves and MaxMovesPerSeed are the caps on moves that were reached (0: not reached).
	MaxMoves, MaxMovesPerSeed int
	// NoRoom: what is left is not explained by the counts above or a cap, so the seeds its other shoots may move
	// to have no room left at or below their target.
	NoRoom bool
}
