// Package config is seedplan's component configuration, a YAML file in the style of Gardener's component
// configs (apiVersion seedplan.gardener.cloud/v1alpha1, kind SeedPlanConfiguration). Unknown fields are errors;
// every field has a default, so an empty file (or none) is a valid configuration.
package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	v1beta1constants "github.com/gardener/gardener/pkg/apis/core/v1beta1/constants"
	yaml3 "go.yaml.in/yaml/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/seedplan/seedplan/model"
)

// APIVersion and Kind identify a SeedPlanConfiguration.
const (
	APIVersion = "seedplan.gardener.cloud/v1alpha1"
	Kind       = "SeedPlanConfiguration"
)

// MaxFileSize bounds a configuration file; a larger one is refused before it is parsed.
const MaxFileSize = 1 << 20

// SeedPlanConfiguration configures the schedule job and the run loop. Command-line flags override it.
type SeedPlanConfiguration struct {
	metav1.TypeMeta `json:",inline"`
	// SchedulerName is the spec.schedulerName of the shoots seedplan places: default-scheduler to replace the
	// gardener-scheduler, or a name of its own to run beside it.
	SchedulerName string `json:"schedulerName,omitempty"`
	// Strategy is the candidate determination strategy: SameRegion or MinimalDistance.
	Strategy string `json:"strategy,omitempty"`
	// StrictNetworks also rejects seeds whose networks overlap a shoot's IPv4 networks.
	StrictNetworks bool                 `json:"strictNetworks,omitempty"`
	Solver         SolverConfiguration  `json:"solver"`
	Placement      PlacementPolicy      `json:"placement"`
	Rebalance      RebalanceTriggers    `json:"rebalance"`
	Window         WindowConfiguration  `json:"window"`
	Bind           BindConfiguration    `json:"bind"`
	Client         ClientConnection     `json:"clientConnection"`
	LeaderElection LeaderElection       `json:"leaderElection"`
	Server         ServerConfiguration  `json:"server"`
	Metrics        MetricsConfiguration `json:"metrics"`
	// LogLevel is one of LogLevels, info by default; LogFormat text (the default, for a terminal) or json (for a
	// log pipeline, as in examples/deploy).
	LogLevel  string `json:"logLevel,omitempty"`
	LogFormat string `json:"logFormat,omitempty"`
}

// The solvers and weightings a configuration may name.
const (
	SolverLP        = "lp"
	SolverGreedy    = "greedy"
	WeightsBalanced = "balanced"
	WeightsCompat   = "compat"
)

// DefaultRequestTimeout bounds one request to the garden: far above a healthy API server's answer to a page of
// a list or a binding, short enough that a hung server fails a job within a minute.
const DefaultRequestTimeout = 30 * time.Second

// LogLevels are the values of logLevel, from the most records to the fewest: each logs records of its level and
// above, warn only what went wrong or may need an operator.
func LogLevels() []string { return []string{"debug", "info", "warn", "error"} }

// DefaultPurposes is the default priority order of spec.purpose values, highest first: all of Gardener's, the
// only values placement.priority.purposes may list.
func DefaultPurposes() []string {
	return []string{
		string(gardencorev1beta1.ShootPurposeInfrastructure), string(gardencorev1beta1.ShootPurposeProduction),
		string(gardencorev1beta1.ShootPurposeDevelopment), string(gardencorev1beta1.ShootPurposeEvaluation),
		string(gardencorev1beta1.ShootPurposeTesting),
	}
}

// SolverConfiguration chooses and tunes the solver.
type SolverConfiguration struct {
	// Name is lp (the default) or greedy.
	Name string `json:"name,omitempty"`
	// Timeout bounds the LP; the greedy plan is used when it runs out.
	Timeout metav1.Duration `json:"timeout,omitempty"`
}

// PlacementPolicy is the one placement policy schedule, run, rebalance and capacity share.
type PlacementPolicy struct {
	// TargetUtilization is the highest shoots/allocatable a seed should end at, in (0, 1] (default 0.8):
	// schedule places a shoot above it only when no seed the shoot may use has room at or below it, rebalance
	// moves shoots off seeds above it, capacity counts the new seeds that keep every seed at or below it.
	TargetUtilization float64 `json:"targetUtilization,omitempty"`
	// Weights are the objective's weights.
	Weights WeightsConfiguration `json:"weights"`
	// Priority orders the shoots when too little room exists for all.
	Priority PriorityConfiguration `json:"priority"`
}

// maxWeight bounds each of the objective's weights. Weights are relative — at a ratio of a million one criterion
// is already all that counts — and the LP multiplies them by distances, seed counts and penalties: much larger
// ones overflowed its costs to infinity and the objective to NaN.
const maxWeight = 1e6

// WeightsConfiguration sets the objective's weights: a preset, and numbers that override its values.
type WeightsConfiguration struct {
	// Preset is compat (the default; distance 1, utilization 1, softTaint 200, distanceFirst) or balanced (the
	// same without distanceFirst).
	Preset string `json:"preset,omitempty"`
	// Distance is the cost of a unit of region distance per shoot; Utilization scales the convex utilization
	// cost; SoftTaint is the cost of each PreferNoSchedule taint a placement does not tolerate.
	Distance    *float64 `json:"distance,omitempty"`
	Utilization *float64 `json:"utilization,omitempty"`
	SoftTaint   *float64 `json:"softTaint,omitempty"`
	// DistanceFirst makes distance strictly more important than utilization: a shoot leaves its nearest region
	// only for room at or below the target that the region lacks. Without it, distance and utilization trade
	// at the weights' rate.
	DistanceFirst *bool `json:"distanceFirst,omitempty"`
}

// RebalanceTriggers say when shoots must leave a seed whatever its load.
type RebalanceTriggers struct {
	// UnusableGrace is how long a seed must have been unhealthy (gardenlet not ready, backup buckets not ready,
	// no last operation) before rebalance moves its shoots away (default 5m, kube's eviction default for a
	// not-ready node). A seed inside its grace is reported with the time left.
	UnusableGrace *metav1.Duration `json:"unusableGrace,omitempty"`
	// MaxMoveDistance, when set, bounds the region distance of a move (from the region ConfigMaps), for
	// landscapes that rely on live migration between near seeds.
	MaxMoveDistance *int `json:"maxMoveDistance,omitempty"`
	// Triggers are the reasons besides an explicit --drain that move shoots: overloaded (above the target),
	// NoExecute (a taint the shoot does not tolerate), unusable (a seed deleted, or unhealthy past its grace).
	// Default: all three.
	Triggers []string `json:"triggers,omitempty"`
	// MaxMovesPerProject, when positive, bounds the moves of one project's shoots in one run of rebalance
	// --apply or apply -f; the rest come back "capped" for a later run.
	MaxMovesPerProject int `json:"maxMovesPerProject,omitempty"`
	// Pacing bounds the migrations rebalance --apply and apply -f run at once.
	Pacing PacingConfiguration `json:"pacing"`
}

// PacingConfiguration bounds the control plane migrations in flight, those a run did not start included: a move
// is in flight from its binding until the shoot reports its restore on the new seed.
type PacingConfiguration struct {
	// MaxInFlight bounds the migrations in flight in all (default 2); MaxPerSeed those off one seed and those
	// onto one seed (default 1).
	MaxInFlight int `json:"maxInFlight,omitempty"`
	MaxPerSeed  int `json:"maxPerSeed,omitempty"`
	// Timeout bounds one migration, and a move's wait for a slot: either not over in time stops the run (default
	// 30m; GEP-39 gives 10–20 minutes for a classic migration).
	Timeout metav1.Duration `json:"timeout,omitempty"`
	// Poll is how often the shoots in migration are read (default 10s).
	Poll metav1.Duration `json:"poll,omitempty"`
}

// PriorityConfiguration orders shoots under scarcity: the number placed stays maximal, and among plans that
// place as many, shoots of an earlier purpose go first, then older ones, then by name.
type PriorityConfiguration struct {
	// Purposes lists spec.purpose values from the highest priority down (default: infrastructure, production,
	// development, evaluation, testing); a shoot whose purpose is not listed comes last.
	Purposes []string `json:"purposes,omitempty"`
}

// WindowConfiguration shapes the run loop's windows. They are closed by work: an idle loop plans a shoot the
// moment it becomes pending, and what arrives meanwhile forms the next window, at most MaxShoots of them, oldest
// first. MaxWait, when set, makes a window of fewer than MaxShoots wait that long after its oldest shoot for more
// (a coalescing delay; 0, the default, waits for nothing).
type WindowConfiguration struct {
	MaxShoots int             `json:"maxShoots,omitempty"`
	MaxWait   metav1.Duration `json:"maxWait,omitempty"`
}

// BindConfiguration tunes how a plan is applied.
type BindConfiguration struct {
	// Concurrency is how many bindings are in flight at once (the client's QPS limits them further).
	Concurrency int `json:"concurrency,omitempty"`
	// Rounds is how many windows one schedule job runs at most: shoots whose binding met a conflict and that
	// are still pending are planned again in the next window.
	Rounds int `json:"rounds,omitempty"`
}

// ClientConnection configures the client of the garden cluster.
type ClientConnection struct {
	// Kubeconfig is the path of a kubeconfig; empty means $KUBECONFIG, then the in-cluster configuration.
	Kubeconfig string `json:"kubeconfig,omitempty"`
	// Context is the kubeconfig context to use; empty means its current context.
	Context string  `json:"context,omitempty"`
	QPS     float32 `json:"qps,omitempty"`
	Burst   int     `json:"burst,omitempty"`
	// RequestTimeout bounds every request but the run loop's watches, so that a hung API server, or Pushgateway,
	// fails a job instead of stopping it forever; 0 means no bound, as kubectl's --request-timeout.
	RequestTimeout *metav1.Duration `json:"requestTimeout,omitempty"`
}

// LeaderElection configures the Lease that makes sure only one run loop binds.
type LeaderElection struct {
	LeaderElect       *bool           `json:"leaderElect,omitempty"`
	LeaseDuration     metav1.Duration `json:"leaseDuration,omitempty"`
	RenewDeadline     metav1.Duration `json:"renewDeadline,omitempty"`
	RetryPeriod       metav1.Duration `json:"retryPeriod,omitempty"`
	ResourceNamespace string          `json:"resourceNamespace,omitempty"`
	ResourceName      string          `json:"resourceName,omitempty"`
}

// ServerConfiguration is where the run loop serves /healthz and /metrics.
type ServerConfiguration struct {
	// BindAddress is host:port of the HTTP server.
	BindAddress string `json:"bindAddress,omitempty"`
}

// MetricsConfiguration configures metrics of the schedule job.
type MetricsConfiguration struct {
	// Pushgateway is the URL of a Prometheus Pushgateway the schedule job pushes its metrics to (empty: none).
	Pushgateway string `json:"pushgateway,omitempty"`
	// Job is the Pushgateway job label.
	Job string `json:"job,omitempty"`
}

// Default returns the configuration with every default filled in.
func Default() *SeedPlanConfiguration {
	c := &SeedPlanConfiguration{}
	c.SetDefaults()
	return c
}

// SetDefaults fills every unset field with its default.
func (c *SeedPlanConfiguration) SetDefaults() {
	c.APIVersion, c.Kind = APIVersion, Kind
	setDefault(&c.SchedulerName, v1beta1constants.DefaultSchedulerName)
	setDefault(&c.Strategy, string(model.SameRegion))
	setDefault(&c.Solver.Name, SolverLP)
	setDefault(&c.Solver.Timeout.Duration, 2*time.Second)
	setDefault(&c.Placement.TargetUtilization, 0.8)
	if c.Rebalance.Triggers == nil {
		for _, t := range model.AllTriggers() {
			c.Rebalance.Triggers = append(c.Rebalance.Triggers, string(t))
		}
	}
	setDefault(&c.Rebalance.Pacing.MaxInFlight, 2)
	setDefault(&c.Rebalance.Pacing.MaxPerSeed, 1)
	setDefault(&c.Rebalance.Pacing.Timeout.Duration, 30*time.Minute)
	setDefault(&c.Rebalance.Pacing.Poll.Duration, 10*time.Second)
	if c.Rebalance.UnusableGrace == nil {
		c.Rebalance.UnusableGrace = &metav1.Duration{Duration: model.DefaultUnusableGrace}
	}
	setDefault(&c.Placement.Weights.Preset, WeightsCompat)
	if c.Placement.Priority.Purposes == nil {
		c.Placement.Priority.Purposes = DefaultPurposes()
	}
	setDefault(&c.Window.MaxShoots, 1000)
	setDefault(&c.Bind.Concurrency, 16)
	setDefault(&c.Bind.Rounds, 3)
	setDefault(&c.Client.QPS, 200)
	setDefault(&c.Client.Burst, 400)
	if c.Client.RequestTimeout == nil {
		c.Client.RequestTimeout = &metav1.Duration{Duration: DefaultRequestTimeout}
	}
	if c.LeaderElection.LeaderElect == nil {
		leaderElect := true
		c.LeaderElection.LeaderElect = &leaderElect
	}
	setDefault(&c.LeaderElection.LeaseDuration.Duration, 15*time.Second)
	setDefault(&c.LeaderElection.RenewDeadline.Duration, 10*time.Second)
	setDefault(&c.LeaderElection.RetryPeriod.Duration, 2*time.Second)
	setDefault(&c.LeaderElection.ResourceNamespace, "garden")
	setDefault(&c.LeaderElection.ResourceName, "seedplan-leader-election")
	setDefault(&c.Server.BindAddress, ":19251")
	setDefault(&c.Metrics.Job, "seedplan")
	setDefault(&c.LogLevel, "info")
	setDefault(&c.LogFormat, "text")
}

func setDefault[T comparable](field *T, value T) {
	var zero T
	if *field == zero {
		*field = value
	}
}

// Read reads a configuration file, refusing unknown fields, and defaults it. It does not validate it: its caller
// sets fields from flags first, as kube-scheduler's flags override its file, and validates what it will run with
// (a field a flag overrides may be invalid in the file). An empty file is refused: a configuration mounted empty
// would otherwise run with the defaults — as default-scheduler beside the gardener-scheduler, say — instead of
// failing.
func Read(path string) (*SeedPlanConfiguration, error) {
	data, err := ReadRegularFile(path, MaxFileSize)
	if err != nil {
		return nil, fmt.Errorf("configuration %w", err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("configuration %s: empty; it must hold a %s (leave out --config for the defaults)", path, Kind)
	}
	c, err := Decode(data)
	if err != nil {
		return nil, EachPrefixed("configuration "+path, Each(err))
	}
	return c, nil
}

// Each is the errors err joins (Validate's field errors, the strict decoder's), or err alone.
func Each(err error) []error {
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		return joined.Unwrap()
	}
	return []error{err}
}

// EachPrefixed joins the errors with prefix before each, so that every line of a report of several says where it
// is.
func EachPrefixed(prefix string, errs []error) error {
	each := make([]error, len(errs))
	for i, e := range errs {
		each[i] = fmt.Errorf("%s: %w", prefix, e)
	}
	return errors.Join(each...)
}

// ReadRegularFile reads an operator's file — a configuration, a reviewed plan — of at most limit bytes. It must
// be a regular file (or a link to one): opening a named pipe would block until someone writes to it. Errors
// start with the path.
func ReadRegularFile(path string, limit int64) ([]byte, error) {
	if err := CheckRegularFile(path, limit); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, WithPath(path, err)
	}
	return data, nil
}

// CheckRegularFile refuses what ReadRegularFile refuses, for files another library reads: anything but a regular
// file (or a link to one) of at most limit bytes. Errors start with the path.
func CheckRegularFile(path string, limit int64) error {
	info, err := os.Stat(path)
	if err != nil {
		return WithPath(path, err)
	}
	return CheckFileInfo(path, info, limit)
}

// CheckFileInfo refuses, naming it as display, a file that is not regular (or a link to one) or is larger than
// limit bytes: the one wording of every file seedplan reads.
func CheckFileInfo(display string, info fs.FileInfo, limit int64) error {
	if !info.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file but %s; refusing to read it", display, fileKind(info.Mode()))
	}
	if info.Size() > limit {
		return fmt.Errorf("%s: %d bytes, more than the limit of %d (%s)", display, info.Size(), limit, sizeInUnits(limit))
	}
	return nil
}

// fileKind names what a file that is not regular is.
func fileKind(mode fs.FileMode) string {
	switch {
	case mode.IsDir():
		return "a directory"
	case mode&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	case mode&fs.ModeCharDevice != 0:
		return "a character device"
	case mode&fs.ModeDevice != 0:
		return "a device"
	default:
		return "an irregular file (" + mode.Type().String() + ")"
	}
}

// sizeInUnits is a limit of bytes in the largest binary unit that divides it.
func sizeInUnits(bytes int64) string {
	switch {
	case bytes >= 1<<20 && bytes%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", bytes>>20)
	case bytes >= 1<<10 && bytes%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", bytes>>10)
	}
	return fmt.Sprintf("%d bytes", bytes)
}

// WithPath starts err with path, once: an *fs.PathError about path already names it ("stat PATH: …"), so only its
// cause is kept after the path, without the system call. One about another file (a certificate a kubeconfig names)
// is kept whole.
func WithPath(path string, err error) error { return WithPathNamed(path, path, err) }

// WithPathNamed is WithPath for a file err knows by another name, its name inside an fs.FS: it starts err with
// path, and an *fs.PathError about name gives only its cause.
func WithPathNamed(path, name string, err error) error {
	if pathErr := (*fs.PathError)(nil); errors.As(err, &pathErr) && pathErr.Path == name {
		err = pathErr.Err
	}
	return fmt.Errorf("%s: %w", path, err)
}

// oneDocument refuses a configuration of several documents, and duplicate keys, which the YAML-to-JSON
// conversion would silently drop: what an operator wrote is either the configuration or an error. documents are
// the file's, as model.BudgetedDocuments parsed them.
func oneDocument(documents []*yaml3.Node) error {
	for n, document := range documents {
		if n > 0 {
			return fmt.Errorf("document %d: a configuration file holds one document", n+1)
		}
		if err := uniqueKeys(document.Content[0], ""); err != nil {
			return err
		}
	}
	return nil
}

// Documents is the documents of a YAML stream that hold something, parsed within the input budget
// (model.BudgetedDocuments): a document of comments alone, before or after the others, holds nothing.
func Documents(data []byte) ([]*yaml3.Node, error) {
	documents, err := model.BudgetedDocuments(data)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(documents, func(d *yaml3.Node) bool {
		return len(d.Content) == 0 || d.Content[0].Kind == yaml3.ScalarNode && d.Content[0].Tag == "!!null" && d.Content[0].Value == ""
	}), nil
}

// uniqueKeys refuses a mapping, at path or below, that has a key twice.
func uniqueKeys(node *yaml3.Node, path string) error {
	if node.Kind == yaml3.MappingNode {
		seen := map[string]bool{}
		for i := 0; i+1 < len(node.Content); i += 2 {
			key := node.Content[i].Value
			if seen[key] {
				return fmt.Errorf("%s: duplicate key", strings.TrimPrefix(path+"."+key, "."))
			}
			seen[key] = true
			if err := uniqueKeys(node.Content[i+1], path+"."+key); err != nil {
				return err
			}
		}
		return nil
	}
	for _, child := range node.Content {
		if err := uniqueKeys(child, path); err != nil {
			return err
		}
	}
	return nil
}

// Decode decodes a configuration (YAML or JSON), refusing unknown fields and reporting every value that does not
// decode, and defaults it; it does not validate it (Validate).
func Decode(data []byte) (*SeedPlanConfiguration, error) {
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("%d bytes, more than the limit of %d", len(data), MaxFileSize)
	}
	c := &SeedPlanConfiguration{}
	if len(bytes.TrimSpace(data)) > 0 {
		documents, err := Documents(data)
		if err != nil {
			return nil, err
		}
		if err := oneDocument(documents); err != nil {
			return nil, err
		}
		jsonData, err := YAMLToJSON(data)
		if err != nil {
			return nil, ConversionError(data, err)
		}
		var typeMeta metav1.TypeMeta // first: a landscape given as the configuration is the wrong kind, not a bad field
		if err := json.Unmarshal(jsonData, &typeMeta); err != nil || typeMeta.APIVersion != APIVersion || typeMeta.Kind != Kind {
			err := fmt.Errorf("apiVersion/kind: %q/%q, want %s/%s", typeMeta.APIVersion, typeMeta.Kind, APIVersion, Kind)
			if typeMeta.APIVersion == "v1" && typeMeta.Kind == "ConfigMap" {
				err = fmt.Errorf("%w: a ConfigMap is not the configuration; the one in examples/deploy holds it under its key "+
					"config.yaml, which the Deployment mounts as a file: give --config that text", err)
			}
			return nil, err
		}
		if errs := decodeEvery(jsonData, c); len(errs) > 0 {
			return nil, errors.Join(errs...)
		}
	}
	c.SetDefaults()
	return c, nil
}

// FieldError is one invalid field of a configuration, named by its path (e.g. solver.timeout).
type FieldError struct {
	Field   string
	Value   any
	Problem string
}

// Error is the field's path, its value and what is wrong with it.
func (e *FieldError) Error() string { return fmt.Sprintf("%s: %v: %s", e.Field, e.Value, e.Problem) }

// Validate reports every invalid field as a *FieldError, joined.
func (c *SeedPlanConfiguration) Validate() error {
	var errs fieldErrors
	errs.placement(c)
	errs.rebalance(c.Rebalance)
	errs.runtime(c)
	errs.leaderElection(c.LeaderElection)
	errs.oneOf("logLevel", c.LogLevel, LogLevels()...)
	errs.oneOf("logFormat", c.LogFormat, "json", "text")
	return errors.Join(errs...)
}

// fieldErrors collects the invalid fields of a configuration, each a *FieldError.
type fieldErrors []error

// invalid adds the field, its value and what is wrong with it.
func (e *fieldErrors) invalid(field string, value any, problem string) {
	*e = append(*e, &FieldError{Field: field, Value: value, Problem: problem})
}

// oneOf checks that the field's value is one of those allowed.
func (e *fieldErrors) oneOf(field, value string, allowed ...string) {
	if !slices.Contains(allowed, value) {
		e.invalid(field, value, "must be one of "+strings.Join(allowed, ", "))
	}
}

// positive checks that the field's duration is more than zero.
func (e *fieldErrors) positive(field string, d time.Duration) {
	if d <= 0 {
		e.invalid(field, d, "must be positive")
	}
}

// atLeastOne checks that the field's count is one or more.
func (e *fieldErrors) atLeastOne(field string, n int) {
	if n < 1 {
		e.invalid(field, n, "must be at least 1")
	}
}

// notNegative checks that the field's number is zero or more.
func notNegative[N int | float32 | time.Duration](e *fieldErrors, field string, n N) {
	if n < 0 {
		e.invalid(field, n, "must not be negative")
	}
}

// placement checks what decides which shoots are placed and where they go: the scheduler name, the strategy, the
// solver and the placement policy.
func (e *fieldErrors) placement(c *SeedPlanConfiguration) {
	if _, err := model.ParseStrategy(c.Strategy); err != nil {
		e.invalid("strategy", c.Strategy, fmt.Sprintf("must be %s or %s", model.SameRegion, model.MinimalDistance))
	}
	// Gardener validates a shoot's spec.schedulerName as a DNS-1123 label: a name that is none is carried by no
	// shoot, and seedplan would wait for shoots that can never come.
	if problems := validation.IsDNS1123Label(c.SchedulerName); len(problems) > 0 {
		e.invalid("schedulerName", c.SchedulerName, strings.Join(problems, "; "))
	}
	e.oneOf("solver.name", c.Solver.Name, SolverLP, SolverGreedy)
	e.positive("solver.timeout", c.Solver.Timeout.Duration)
	e.oneOf("placement.weights.preset", c.Placement.Weights.Preset, WeightsCompat, WeightsBalanced)
	if err := model.CheckTargetUtilization(c.Placement.TargetUtilization); err != nil {
		e.invalid("placement.targetUtilization", c.Placement.TargetUtilization, "must be in (0, 1]")
	}
	w := c.Placement.Weights
	for _, weight := range []struct {
		field string
		value *float64
	}{{"distance", w.Distance}, {"utilization", w.Utilization}, {"softTaint", w.SoftTaint}} {
		if value := weight.value; value != nil && !(*value >= 0 && *value <= maxWeight) { // NaN too
			e.invalid("placement.weights."+weight.field, *value, fmt.Sprintf("must be a number from 0 to %d", int(maxWeight)))
		}
	}
	for _, purpose := range c.Placement.Priority.Purposes {
		e.oneOf("placement.priority.purposes", purpose, DefaultPurposes()...) // a typo would rank its shoots last
	}
	e.listedOnce("placement.priority.purposes", c.Placement.Priority.Purposes)
}

// listedOnce refuses a value listed twice: the second is a slip for another value, which is then missing.
func (e *fieldErrors) listedOnce(field string, values []string) {
	for i := range model.Repeats(values) {
		e.invalid(field, values[i], "listed twice")
	}
}

// rebalance checks the rebalancing's triggers, bounds and pacing.
func (e *fieldErrors) rebalance(r RebalanceTriggers) {
	if r.UnusableGrace != nil {
		notNegative(e, "rebalance.unusableGrace", r.UnusableGrace.Duration)
	}
	for _, trigger := range r.Triggers {
		e.oneOf("rebalance.triggers", trigger, string(model.LeaveOverloaded), string(model.LeaveNoExecute), string(model.LeaveUnusable))
	}
	e.listedOnce("rebalance.triggers", r.Triggers)
	notNegative(e, "rebalance.maxMovesPerProject", r.MaxMovesPerProject)
	if d := r.MaxMoveDistance; d != nil {
		notNegative(e, "rebalance.maxMoveDistance", *d)
	}
	e.atLeastOne("rebalance.pacing.maxInFlight", r.Pacing.MaxInFlight)
	e.atLeastOne("rebalance.pacing.maxPerSeed", r.Pacing.MaxPerSeed)
	e.positive("rebalance.pacing.timeout", r.Pacing.Timeout.Duration)
	e.positive("rebalance.pacing.poll", r.Pacing.Poll.Duration)
}

// runtime checks how the loop forms windows, binds and talks to the API server.
func (e *fieldErrors) runtime(c *SeedPlanConfiguration) {
	notNegative(e, "window.maxWait", c.Window.MaxWait.Duration)
	e.atLeastOne("window.maxShoots", c.Window.MaxShoots)
	e.atLeastOne("bind.concurrency", c.Bind.Concurrency)
	e.atLeastOne("bind.rounds", c.Bind.Rounds)
	notNegative(e, "clientConnection.qps", c.Client.QPS)
	notNegative(e, "clientConnection.burst", c.Client.Burst)
	if t := c.Client.RequestTimeout; t != nil && t.Duration < 0 {
		e.invalid("clientConnection.requestTimeout", t.Duration, "must not be negative (0: no timeout)")
	}
	if _, port, err := net.SplitHostPort(c.Server.BindAddress); err != nil || !validPort(port) {
		e.invalid("server.bindAddress", c.Server.BindAddress, "must be host:port, the host may be empty")
	}
	if gateway := c.Metrics.Pushgateway; gateway != "" && !pushgatewayURL(gateway) {
		e.invalid("metrics.pushgateway", gateway, "must be a Pushgateway's http(s) URL or host:port")
	}
}

// validPort reports whether port is a TCP port number.
func validPort(port string) bool {
	_, err := strconv.ParseUint(port, 10, 16)
	return err == nil
}

// pushgatewayURL reports whether gateway reaches a Pushgateway as the Prometheus push client reads it: a URL of
// http or https with a host, or a host:port it prefixes with http://.
func pushgatewayURL(gateway string) bool {
	if !strings.Contains(gateway, "://") {
		gateway = "http://" + gateway
	}
	u, err := url.Parse(gateway)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// leaderElection checks that the lease outlasts the renewal deadline, which outlasts the retry period.
func (e *fieldErrors) leaderElection(le LeaderElection) {
	e.positive("leaderElection.leaseDuration", le.LeaseDuration.Duration)
	e.positive("leaderElection.renewDeadline", le.RenewDeadline.Duration)
	e.positive("leaderElection.retryPeriod", le.RetryPeriod.Duration)
	if le.LeaseDuration.Duration <= le.RenewDeadline.Duration {
		e.invalid("leaderElection.leaseDuration", le.LeaseDuration.Duration, "must be greater than renewDeadline")
	}
	if le.RenewDeadline.Duration <= le.RetryPeriod.Duration {
		e.invalid("leaderElection.renewDeadline", le.RenewDeadline.Duration, "must be greater than retryPeriod")
	}
	// The Lease is created by its namespace and name: the API server would refuse others only once the loop runs.
	if problems := validation.IsDNS1123Label(le.ResourceNamespace); len(problems) > 0 {
		e.invalid("leaderElection.resourceNamespace", le.ResourceNamespace, strings.Join(problems, "; "))
	}
	if problems := validation.IsDNS1123Subdomain(le.ResourceName); len(problems) > 0 {
		e.invalid("leaderElection.resourceName", le.ResourceName, strings.Join(problems, "; "))
	}
}

// Logger returns a logger writing to w at the configured level and in the configured format.
func (c *SeedPlanConfiguration) Logger(w io.Writer) *slog.Logger {
	var level slog.Level // info, the default; Validate refuses other names than LogLevels
	_ = level.UnmarshalText([]byte(c.LogLevel))
	opts := &slog.HandlerOptions{Level: level}
	if c.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
