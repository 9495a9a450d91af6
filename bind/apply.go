package bind

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"golang.org/x/net/http2"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/seedplan/seedplan/ingest"
	"github.com/seedplan/seedplan/model"
)

// The event reasons, action and message prefix of the gardener-scheduler (gardener-scheduler.md §4).
const (
	ReasonSchedulingSuccessful = "SchedulingSuccessful"
	ReasonSchedulingFailed     = "SchedulingFailed"
	EventAction                = "Reconcile"
	// FailurePrefix begins the description of the lastOperation, and the note of the event, of a shoot the
	// gardener-scheduler could not schedule.
	FailurePrefix = "Failed to schedule Shoot: "
	// ReportingController names seedplan as the source of its events.
	ReportingController = "seedplan"
	// maxEventNote is the events.k8s.io/v1 limit on an event's note; longer messages are cut to it.
	maxEventNote = 1024
)

// Binder applies plans to a garden cluster: bindings through the Shoot binding subresource, events and
// lastOperation exactly as the gardener-scheduler writes them.
type Binder struct {
	Client client.Client
	// Reader reads a shoot again after a conflict or a lost answer; it must read the API server, not a cache (Client
	// when nil).
	Reader client.Reader
	// Concurrency bounds the bindings in flight; the client's QPS limits them further.
	Concurrency int
	// Instance names this seedplan process in its events (reportingInstance), e.g. the pod name; "seedplan"
	// when empty.
	Instance string
	// Now is the clock of events and lastOperation (time.Now when nil).
	Now func() time.Time
	// QPS is the client's rate limit: the events that wait while bindings go on are at most what it writes in
	// 10 s (2,000 when 0), so that a stopping loop writes them within its grace period.
	QPS float32
	// DryRun sends every binding as a server-side dry run: the API server validates and admits it (model.Admitted)
	// or refuses it, and stores nothing; no event or lastOperation is written.
	DryRun bool

	reports reports
}

// Result is what became of one shoot of a plan.
type Result struct {
	// Shoot is namespace/name; Seed the planned seed ("" for an unschedulable shoot).
	Shoot, Seed string
	Result      model.BindResult
	// Err is the API error behind model.Refused, model.Failed and model.Interrupted.
	Err error
	// BoundAt is when the binding succeeded (Bound only).
	BoundAt time.Time
}

// Retry reports whether the shoot is still pending and belongs into the next window.
func (r Result) Retry() bool {
	switch r.Result {
	case model.Conflict, model.Refused, model.Failed, model.Deferred, model.Interrupted:
		return true
	}
	return false
}

// Recheck keeps, of the plan's placements and in plan order, those that still fit on their seeds as a fresh read
// just before binding shows them (seeds, shoots): beside the shoots a seed hosts now — the more of what the window
// counted (hosted) and what the fresh read counts, with the bindings in flight that it does not show yet
// (assumed: shoot → seed) — and none on a seed deleted meanwhile; the others are returned as model.Deferred and
// stay pending for the next window. So another scheduler binding to the same seeds meanwhile cannot make seedplan
// overfill them. Gardener's ShootValidator refuses a binding to a full seed too, but it counts from its informer
// cache, so bindings in flight together pass it beyond the allocatable.
func Recheck(ctx context.Context, plan *model.Plan, seeds []*gardencorev1beta1.Seed, shoots []*gardencorev1beta1.Shoot,
	hosted func(seed string) int, assumed map[string]string) (*model.Plan, []Result) {
	now := model.SeedUsage(model.Assume(shoots, assumed))
	room := map[string]int{} // a seed missing here was deleted or is being deleted: no room
	for _, seed := range seeds {
		if seed.DeletionTimestamp == nil {
			room[seed.Name] = model.FreeCapacity(seed, max(hosted(seed.Name), now[seed.Name]))
		}
	}
	kept := &model.Plan{Unschedulable: plan.Unschedulable}
	var deferred []Result
	for _, pl := range plan.Placements {
		if room[pl.Seed] == 0 {
			deferred = append(deferred, Result{Shoot: pl.Shoot, Seed: pl.Seed, Result: model.Deferred})
			continue
		}
		if room[pl.Seed] != model.Unlimited {
			room[pl.Seed]--
		}
		kept.Placements = append(kept.Placements, pl)
	}
	if len(deferred) > 0 {
		slog.InfoContext(ctx, "Seeds changed since the window read them; placements deferred to the next window", "placements", len(deferred))
	}
	return kept, deferred
}

// reader is where the Binder reads the API server.
func (b *Binder) reader() client.Reader {
	if b.Reader == nil {
		return b.Client
	}
	return b.Reader
}

// Apply binds every placement of the plan and reports every unschedulable shoot and refused binding (its event
// and lastOperation), concurrently (placements first), and queues the event of every binding: those are written
// once no Apply binds (reports), and Flush waits for them.
// A failure is reported before Apply returns: the shoot may be planned again at once, and a report written later
// would mark a shoot bound meanwhile as failed, or change it under its next binding. shoots are the objects as
// read from the cluster (not defaulted or otherwise changed locally), by
// namespace/name: a binding carries the object's resourceVersion, so a shoot that changed since it was read is
// never bound blindly. A shoot someone else gave a seed meanwhile is left alone; a deleted one is skipped. Apply
// returns one result per placement, in the plan's order, and an error when ctx ended before everything was
// done; a placement never tried is then reported failed (it stays pending).
func (b *Binder) Apply(ctx context.Context, shoots map[string]*gardencorev1beta1.Shoot, plan *model.Plan) ([]Result, error) {
	b.reports.hold(b.heldReports())
	defer b.reports.release()
	results := make([]Result, len(plan.Placements))
	for i, pl := range plan.Placements {
		results[i] = Result{Shoot: pl.Shoot, Seed: pl.Seed, Result: model.Interrupted, Err: errNotTried}
	}
	// Task i < len(placements) binds placement i; the others report unschedulable shoot i - len(placements).
	tasks := make(chan int)
	var wg sync.WaitGroup
	for range max(1, b.Concurrency) {
		wg.Go(func() {
			for i := range tasks {
				if i < len(plan.Placements) {
					pl := plan.Placements[i]
					results[i] = b.bind(ctx, shoots[pl.Shoot], pl)
				} else if u := plan.Unschedulable[i-len(plan.Placements)]; shoots[u.Shoot] != nil && !b.DryRun {
					// Said where the gardener-scheduler's reconciler logs its error, as each failure is reported.
					slog.InfoContext(ctx, "Shoot unschedulable", "shoot", u.Shoot, "reason", u.Reason, "message", u.Message)
					b.reportFailure(ctx, shoots[u.Shoot], u.Message)
				}
			}
		})
	}
	for i := range len(plan.Placements) + len(plan.Unschedulable) {
		if ctx.Err() != nil {
			break
		}
		tasks <- i
	}
	close(tasks)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		interrupted := Summarize(results)[model.Interrupted]
		return results, fmt.Errorf("stopped before binding %d of %d shoots, which stay pending: %w", interrupted, len(results), err)
	}
	return results, nil
}

// errNotTried is the error of a placement whose binding was never sent because the Binder's context had ended.
var errNotTried = errors.New("not tried: seedplan was stopping")

// bind binds one shoot and, on a conflict, finds out what became of it; the event of a binding is queued. A shoot
// that changed since it was read only in what placement does not read — a label, an annotation, the last
// operation of a failure report the reading cache did not show yet — is bound again at once under its current
// resourceVersion, once: the decision stands, and the next window need not make it again.
func (b *Binder) bind(ctx context.Context, read *gardencorev1beta1.Shoot, pl model.Placement) Result {
	if read == nil {
		return Result{Shoot: pl.Shoot, Seed: pl.Seed, Result: model.Failed, Err: fmt.Errorf("shoot %s: not among the objects read", pl.Shoot)}
	}
	result, current := b.bindAsRead(ctx, read, pl)
	if result.Result != model.Conflict || current == nil || !model.SamePlacementInput(read, current) {
		return result
	}
	slog.InfoContext(ctx, "Shoot changed since it was read, but not in what placement reads: binding it again", "shoot", pl.Shoot, "seed", pl.Seed)
	result, _ = b.bindAsRead(ctx, current, pl)
	return result
}

// bindAsRead binds one shoot under the resourceVersion read; after a conflict, current is the shoot as it is now
// when it was read again (nil otherwise).
func (b *Binder) bindAsRead(ctx context.Context, read *gardencorev1beta1.Shoot, pl model.Placement) (result Result, current *gardencorev1beta1.Shoot) {
	result = Result{Shoot: pl.Shoot, Seed: pl.Seed}
	shoot, err := b.updateBinding(ctx, read, pl.Seed)
	switch {
	case err == nil && b.DryRun:
		result.Result = model.Admitted
	case err == nil:
		result.Result, result.BoundAt = model.Bound, time.Now()
		b.reports.add(func() {
			b.event(ctx, shoot, corev1.EventTypeNormal, ReasonSchedulingSuccessful, fmt.Sprintf("Scheduled to seed %q", pl.Seed))
		})
		slog.InfoContext(ctx, "Shoot scheduled", "shoot", pl.Shoot, "seed", pl.Seed, "distance", pl.Distance)
	case apierrors.IsConflict(err):
		// The shoot changed since it was read: look at it again, and never decide for anyone else.
		result.Result, current = b.afterConflict(ctx, read, err)
		slog.InfoContext(ctx, "Shoot changed since it was read", "shoot", pl.Shoot, "seed", pl.Seed, "result", result.Result)
	case apierrors.IsNotFound(err):
		result.Result = model.Gone
	case refused(err):
		result.Result, result.Err = model.Refused, err
		// As the gardener-scheduler does when its binding fails: a warning event and lastOperation.
		if !b.DryRun {
			b.reportFailure(ctx, read, err.Error())
		}
		slog.InfoContext(ctx, "Binding refused", "shoot", pl.Shoot, "seed", pl.Seed, "error", err)
	case ctx.Err() != nil:
		// Cut off by seedplan's own stop, and not landed (updateBinding looked): no failure of the garden's.
		result.Result, result.Err = model.Interrupted, err
	default:
		result.Result, result.Err = model.Failed, err
		slog.ErrorContext(ctx, "Binding failed", "shoot", pl.Shoot, "seed", pl.Seed, "error", err)
	}
	return result, current
}

// reportWriters is how many events of bindings are written at once.
const reportWriters = 2

// reports writes the events of a Binder's bindings on writers of their own, the way client-go's event recorder
// does, while no Apply binds: events written beside a burst's bindings take the API servers' time from them
// (make bench-binding, make bench-peer). Writers start when the last Apply in progress is done (or on Flush) and
// end when no event is left or another Apply starts; a queue of held events is written even then, so that a
// garden that is never idle still gets its events and a stopping loop has time to write those waiting.
type reports struct {
	mu      sync.Mutex
	queue   []func()
	writers int
	// binding counts the Applys in progress; held is how many reports may wait for them.
	binding, held int
	pending       sync.WaitGroup
}

// maxHeldReports bounds how many events may wait for the bindings in progress; heldReportsSeconds makes a Binder
// hold only what its client writes in 10 s, well within the 30 s a stopping loop has to write them.
const (
	maxHeldReports     = 2000
	heldReportsSeconds = 10
)

// heldReports is how many events may wait while bindings go on.
func (b *Binder) heldReports() int {
	if b.QPS <= 0 {
		return maxHeldReports
	}
	return max(1, min(maxHeldReports, int(b.QPS*heldReportsSeconds)))
}

// add queues a report.
func (r *reports) add(report func()) {
	r.pending.Add(1)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.queue = append(r.queue, report)
	if r.held > 0 && len(r.queue) >= r.held {
		r.startLocked()
	}
}

// hold makes writers pause while an Apply binds.
func (r *reports) hold(held int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.binding++
	r.held = held
}

// release ends an Apply's hold and starts writers when no other Apply binds.
func (r *reports) release() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.binding--
	if r.binding == 0 {
		r.startLocked()
	}
}

// start starts writers for the queued reports.
func (r *reports) start() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.startLocked()
}

func (r *reports) startLocked() {
	for r.writers < min(reportWriters, len(r.queue)) {
		r.writers++
		go r.write()
	}
}

// write writes queued reports until none are left, or an Apply binds and fewer than held wait.
func (r *reports) write() {
	for {
		r.mu.Lock()
		if len(r.queue) == 0 || r.binding > 0 && len(r.queue) < r.held {
			r.writers--
			r.mu.Unlock()
			return
		}
		report := r.queue[0]
		r.queue[0] = nil
		r.queue = r.queue[1:]
		r.mu.Unlock()
		report()
		r.pending.Done()
	}
}

// Flush returns when every event queued so far is written. An event's write ends within its own bound even when
// the context of its binding has ended.
func (b *Binder) Flush() {
	b.reports.start()
	b.reports.pending.Wait()
}

// refused reports whether the API server refused a binding (admission or validation), as opposed to failing it.
func refused(err error) bool {
	return apierrors.IsForbidden(err) || apierrors.IsInvalid(err) || apierrors.IsBadRequest(err)
}

// updateBinding sets the shoot's seed through the binding subresource, carrying the resourceVersion read. A
// binding whose answer was lost counts as made when it landed, and as a conflict when the shoot is now on
// another seed, or another shoot (NotFound when it is gone): someone else decided meanwhile. With DryRun it is
// sent as a dry run, whose answer is all there is.
func (b *Binder) updateBinding(ctx context.Context, read *gardencorev1beta1.Shoot, seed string) (*gardencorev1beta1.Shoot, error) {
	shoot := read.DeepCopy()
	shoot.Spec.SeedName = &seed
	if b.DryRun {
		return shoot, b.Client.SubResource("binding").Update(ctx, shoot, client.DryRunAll)
	}
	err := b.Client.SubResource("binding").Update(ctx, shoot)
	if err == nil || !answerLost(err) {
		return shoot, err
	}
	current, lookErr := b.lookAfterLostAnswer(ctx, read)
	if lookErr != nil {
		if apierrors.IsNotFound(lookErr) {
			return shoot, lookErr // gone meanwhile
		}
		return shoot, err
	}
	switch now := ptr.Deref(current.Spec.SeedName, ""); {
	case current.UID == read.UID && now == seed:
		slog.InfoContext(ctx, "The binding's answer was lost, but it landed", "shoot", client.ObjectKeyFromObject(read).String(), "seed", seed, "error", err)
		return current, nil
	case current.UID != read.UID || now != ptr.Deref(read.Spec.SeedName, ""):
		return shoot, &changedError{current: current, error: apierrors.NewConflict(gardencorev1beta1.Resource("shoots"), read.Name,
			fmt.Errorf("the binding's answer was lost (%w), and the shoot changed since it was read: it is on seed %q", err, now))}
	}
	return shoot, err
}

// changedError is the conflict of a binding whose answer was lost and whose shoot, looked at, had changed: current
// is the shoot as looked at, so that what became of it is not read a second time.
type changedError struct {
	error
	current *gardencorev1beta1.Shoot
}

// Unwrap is the conflict, for apierrors.IsConflict.
func (e *changedError) Unwrap() error { return e.error }

// lookAfterLostAnswer reads the shoot of a binding whose answer was lost — the connection broke, the server
// restarted or timed out — from the API server, waiting for it as a report does, to find out whether the binding
// landed all the same. Without this a binding made would be reported failed and get no event (its shoot is no
// longer pending, so nothing binds it again). A shoot that someone else put on the same seed at the same moment
// is taken for bound too, as an event whose create's answer was lost is taken for written. The restarted server
// may take the look for the anonymous user's at first (ingest.IdentityLost); the look asks again until it knows.
func (b *Binder) lookAfterLostAnswer(ctx context.Context, read *gardencorev1beta1.Shoot) (*gardencorev1beta1.Shoot, error) {
	ctx, cancel := reportContext(ctx)
	defer cancel()
	current := &gardencorev1beta1.Shoot{}
	if err := ingest.RetryThroughRestart(ctx, ingest.RestartPatience, func() error { return b.reader().Get(ctx, client.ObjectKeyFromObject(read), current) }); err != nil {
		return nil, err
	}
	return current, nil
}

// afterConflict classifies a shoot whose binding met a conflict, as the shoot now is (current, nil when unknown):
// looked at already when the binding's answer was lost, read again otherwise.
func (b *Binder) afterConflict(ctx context.Context, read *gardencorev1beta1.Shoot, conflict error) (model.BindResult, *gardencorev1beta1.Shoot) {
	var changed *changedError
	if errors.As(conflict, &changed) {
		return changedTo(read, changed.current), changed.current
	}
	current := &gardencorev1beta1.Shoot{}
	if err := b.reader().Get(ctx, client.ObjectKeyFromObject(read), current); err != nil {
		if apierrors.IsNotFound(err) {
			return model.Gone, nil
		}
		return model.Conflict, nil // unknown: it goes into the next window, which reads it afresh
	}
	return changedTo(read, current), current
}

// changedTo classifies a shoot read before its binding by what it is now: gone (or another shoot of its name),
// taken by someone else, or changed otherwise and still pending.
func changedTo(read, current *gardencorev1beta1.Shoot) model.BindResult {
	switch {
	case current.UID != read.UID || current.DeletionTimestamp != nil:
		return model.Gone
	case current.Spec.SeedName != nil:
		return model.Taken
	default:
		return model.Conflict
	}
}

// reportFailure writes what the gardener-scheduler writes for a shoot it cannot schedule: a Warning event
// SchedulingFailed and status.lastOperation {Create, Pending, "Failed to schedule Shoot: ..."}. Errors are only
// logged, as Gardener does.
func (b *Binder) reportFailure(ctx context.Context, shoot *gardencorev1beta1.Shoot, message string) {
	ctx, cancel := reportContext(ctx)
	defer cancel()
	description := FailurePrefix + message
	b.event(ctx, shoot, corev1.EventTypeWarning, ReasonSchedulingFailed, description)

	patched := shoot.DeepCopy()
	now := metav1.NewTime(b.now())
	if patched.Status.LastOperation == nil {
		patched.Status.LastOperation = &gardencorev1beta1.LastOperation{}
	}
	patched.Status.LastOperation.Type = gardencorev1beta1.LastOperationTypeCreate
	patched.Status.LastOperation.State = gardencorev1beta1.LastOperationStatePending
	patched.Status.LastOperation.LastUpdateTime = now
	patched.Status.LastOperation.Description = description
	err := ingest.RetryTransient(ctx, ingest.RestartPatience, func() error { return b.Client.Status().Patch(ctx, patched, client.MergeFrom(shoot)) })
	switch {
	case apierrors.IsNotFound(err):
		// Deleted since the window read it: no shoot is left to carry the failure, which is no error.
		slog.DebugContext(ctx, "Shoot gone before its failure was recorded", "shoot", client.ObjectKeyFromObject(shoot).String())
	case err != nil:
		slog.ErrorContext(ctx, "Could not update the shoot's last operation", "shoot", client.ObjectKeyFromObject(shoot).String(), "error", err)
	}
}

// event writes an events.k8s.io/v1 Event about the shoot, synchronously, the way client-go's recorder builds it.
func (b *Binder) event(ctx context.Context, shoot *gardencorev1beta1.Shoot, eventType, reason, note string) {
	ctx, cancel := reportContext(ctx)
	defer cancel()
	note = eventNote(note)
	now := b.now()
	event := &eventsv1.Event{
		ObjectMeta: metav1.ObjectMeta{
			Name:      fmt.Sprintf("%s.%x", shoot.Name, now.UnixNano()),
			Namespace: shoot.Namespace,
		},
		EventTime:           metav1.NewMicroTime(now),
		ReportingController: ReportingController,
		ReportingInstance:   cmp.Or(b.Instance, ReportingController),
		Action:              EventAction,
		Reason:              reason,
		Regarding: corev1.ObjectReference{
			APIVersion: gardencorev1beta1.SchemeGroupVersion.String(), Kind: "Shoot",
			Namespace: shoot.Namespace, Name: shoot.Name, UID: shoot.UID, ResourceVersion: shoot.ResourceVersion,
		},
		Note: note,
		Type: eventType,
	}
	err := ingest.RetryTransient(ctx, ingest.RestartPatience, func() error {
		// A create whose response was lost may have landed: the event is there, which is all that matters.
		if err := b.Client.Create(ctx, event); err != nil && !apierrors.IsAlreadyExists(err) {
			return err
		}
		return nil
	})
	if err != nil {
		slog.ErrorContext(ctx, "Could not record an event", "shoot", types.NamespacedName{Namespace: shoot.Namespace, Name: shoot.Name}.String(), "reason", reason, "error", err)
	}
}

// eventNote is note as the API server accepts it: valid UTF-8 (a byte that is not would be sent as U+FFFD, three
// bytes, and could take the note past the limit on the way), cut to maxEventNote bytes between two characters and
// ending in "..." when longer. A message naming every seed of a large garden is longer.
func eventNote(note string) string {
	note = strings.ToValidUTF8(note, "\uFFFD")
	if len(note) <= maxEventNote {
		return note
	}
	end := maxEventNote - len("...")
	for !utf8.RuneStart(note[end]) {
		end--
	}
	return note[:end] + "..."
}

// reportContext lets the report of something done finish when ctx ends meanwhile (a stopping loop still writes
// the event of a binding it made), within a bound long enough to outlast an API server's restart.
func reportContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), reportTimeout)
}

// reportTimeout bounds the writing of one report, retries included.
const reportTimeout = ingest.RestartPatience

// answerLost reports whether a request that failed may have been applied all the same, its answer lost: the
// connection or its HTTP/2 stream broke or the client stopped waiting after the request was sent (a timeout, or
// the caller's context ended, as a stopping loop's does), the server failed it where it may have decided already
// (500, 504), or kube-apiserver lost the answer of gardener-apiserver it had passed the request on to
// (proxiedAnswerLost). A connection refused, a request the server declined (429, 503) and any other error leave
// nothing to look for, so that a garden down for long fails each binding at once, as before.
func answerLost(err error) bool {
	if closedUnderRequests(err) {
		return true
	}
	var status apierrors.APIStatus
	if errors.As(err, &status) {
		code := status.Status().Code
		return code == http.StatusInternalServerError || code == http.StatusGatewayTimeout ||
			code == http.StatusServiceUnavailable && proxiedAnswerLost(status.Status().Details)
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return false
	}
	// An HTTP/2 stream the server reset: only REFUSED_STREAM says that it did not process the request.
	var stream http2.StreamError
	if errors.As(err, &stream) {
		return stream.Code != http2.ErrCodeRefusedStream
	}
	var timeout interface{ Timeout() bool }
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, context.Canceled) ||
		errors.As(err, &op) && op.Op == "read" || errors.As(err, &timeout) && timeout.Timeout()
}

// closedUnderRequests reports whether the HTTP/2 connection a request was sent on was closed under every request
// in flight on it: after another request's write to it failed (a server killed midway resets the connection, and
// http2 then closes it, "force closed via ClientConn.Close"), or when it stopped answering pings ("connection
// lost"). Requests on it may have been applied before the server went. http2 does not export these errors; their
// words are what is left to recognise them by, and TestAnswerLost reads them from http2 itself.
func closedUnderRequests(err error) bool {
	for ; err != nil; err = errors.Unwrap(err) {
		switch err.Error() {
		case "http2: client connection force closed via ClientConn.Close", "http2: client connection lost":
			return true
		}
	}
	return false
}

// proxiedAnswerLost reports whether a 503 is kube-apiserver's proxy to an aggregated API server (gardener-apiserver)
// saying that it lost the answer to a request it had passed on: its words are "error trying to reach service: "
// and what failed, which client-go keeps as the cause of an unexpected response. A failure to connect or to send
// ("dial ...", "write ...": the request never arrived) is not; a broken connection while awaiting the answer ("read
// ...", "EOF": gardener-apiserver may have stored the binding before it died) is.
func proxiedAnswerLost(details *metav1.StatusDetails) bool {
	if details == nil {
		return false
	}
	for _, cause := range details.Causes {
		failed, proxied := strings.CutPrefix(cause.Message, "error trying to reach service: ")
		if cause.Type == metav1.CauseTypeUnexpectedServerResponse && proxied {
			return !strings.HasPrefix(failed, "dial ") && !strings.HasPrefix(failed, "write ")
		}
	}
	return false
}

func (b *Binder) now() time.Time {
	if b.Now != nil {
		return b.Now()
	}
	return time.Now()
}

// Summarize counts results by outcome.
func Summarize(results []Result) map[model.BindResult]int {
	counts := map[model.BindResult]int{}
	for _, r := range results {
		counts[r.Result]++
	}
	return counts
}
