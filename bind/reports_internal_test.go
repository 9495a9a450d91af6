package bind

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Events of bindings wait while an Apply binds, and are all written once none does; while bindings go on, a queue
// that reaches what may be held is written down below it, so that a garden that is never idle still gets its events
// and the queue stays bounded.
func TestReportsWaitForBindings(t *testing.T) {
	cases := []struct {
		name     string
		queued   int
		released bool // the Apply in progress ends
		want     int  // written, once every writer has stopped
	}{
		{"no apply in progress", 3, true, 3},
		{"an apply in progress", 3, false, 0},
		{"an apply in progress, the queue full", maxHeldReports + 5, false, 6},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var r reports
			var written atomic.Int64
			r.hold(maxHeldReports)
			for range tc.queued {
				r.add(func() { written.Add(1) })
			}
			r.start()
			if tc.released {
				r.release()
			}
			waitForWriters(t, &r)
			if got := int(written.Load()); got != tc.want {
				t.Fatalf("%d of %d events written, want %d", got, tc.queued, tc.want)
			}
			if !tc.released {
				r.release()
				r.pending.Wait()
				if got := int(written.Load()); got != tc.queued {
					t.Fatalf("after the apply: %d of %d events written", got, tc.queued)
				}
			}
		})
	}
}

// waitForWriters returns once no writer runs.
func waitForWriters(t *testing.T, r *reports) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		r.mu.Lock()
		writers := r.writers
		r.mu.Unlock()
		if writers == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("writers still running after 10 s")
		}
		time.Sleep(time.Millisecond)
	}
}

// A report is written again while the API server cannot decide on it (unreachable, overloaded, failing) and
// never when it refused it.
func TestRetryTransient(t *testing.T) {
	shoots := schema.GroupResource{Group: "core.gardener.cloud", Resource: "shoots"}
	for _, tc := range []struct {
		name     string
		failures []error
		calls    int
		fails    bool
	}{
		{name: "written at once", calls: 1},
		{name: "connection refused, then written", failures: []error{syscall.ECONNREFUSED}, calls: 2},
		{name: "503 and 429, then written", failures: []error{apierrors.NewServiceUnavailable("restarting"),
			apierrors.NewTooManyRequests("slow down", 1)}, calls: 3},
		{name: "a server timeout, then written", failures: []error{apierrors.NewServerTimeout(shoots, "create", 1)}, calls: 2},
		{name: "refused by validation", failures: []error{apierrors.NewInvalid(schema.GroupKind{Kind: "Event"}, "e", nil)}, calls: 1, fails: true},
		{name: "forbidden", failures: []error{apierrors.NewForbidden(shoots, "s", errors.New("no"))}, calls: 1, fails: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			err := retryTransient(context.Background(), func() error {
				calls++
				if calls <= len(tc.failures) {
					return tc.failures[calls-1]
				}
				return nil
			})
			if calls != tc.calls || (err != nil) != tc.fails {
				t.Fatalf("%d calls, error %v; want %d calls, failing %v", calls, err, tc.calls, tc.fails)
			}
		})
	}
}

// A failure is transient when the API server did not decide on the request, also when wrapped in context.
func TestTransient(t *testing.T) {
	shoots := schema.GroupResource{Group: "core.gardener.cloud", Resource: "shoots"}
	wrapped := func(err error) error { return fmt.Errorf("reading shoot garden-a/s in migration: %w", err) }
	for _, tc := range []struct {
		name      string
		err       error
		transient bool
	}{
		{"the connection was refused", syscall.ECONNREFUSED, true},
		{"the TLS handshake failed, as client-go reports it", wrapped(&url.Error{Op: "Get", URL: "https://garden/shoot", Err: errors.New("tls: handshake failure")}), true},
		{"the server's certificate is not trusted", wrapped(&url.Error{Op: "Get", URL: "https://garden/shoot",
			Err: &tls.CertificateVerificationError{Err: x509.UnknownAuthorityError{}}}), false},
		{"the connection broke", wrapped(&url.Error{Op: "Get", URL: "https://garden/shoot", Err: io.ErrUnexpectedEOF}), true},
		{"the request's own deadline passed", wrapped(context.DeadlineExceeded), true},
		{"the server is unavailable (503), wrapped", wrapped(apierrors.NewServiceUnavailable("restarting")), true},
		{"the server declined (429)", apierrors.NewTooManyRequests("slow down", 1), true},
		{"the server timed out (504)", apierrors.NewTimeoutError("too long", 1), true},
		{"the server failed (500), wrapped", wrapped(apierrors.NewInternalError(errors.New("etcd"))), true},
		{"the caller gave up (its context canceled), wrapped", wrapped(&url.Error{Op: "Get", URL: "https://garden/shoot", Err: context.Canceled}), false},
		{"not found, wrapped", wrapped(apierrors.NewNotFound(shoots, "s")), false},
		{"forbidden", apierrors.NewForbidden(shoots, "s", errors.New("no")), false},
		{"a conflict", apierrors.NewConflict(shoots, "s", errors.New("changed")), false},
		{"no request failed: an object read does not validate", errors.New("reading the garden cluster: cluster: Seed s: field spec.provider.type: required"), false},
	} {
		if got := Transient(tc.err); got != tc.transient {
			t.Errorf("%s: Transient(%v) = %v, want %v", tc.name, tc.err, got, tc.transient)
		}
	}
}

// Retries end with the report's context, saying what failed last.
func TestRetryTransientEndsWithTheContext(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	err := retryTransient(ctx, func() error { return syscall.ECONNREFUSED })
	if !errors.Is(err, syscall.ECONNREFUSED) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v; want the last failure and the deadline", err)
	}
}

// timeoutError is a client's timeout, as net/http words one while it awaits the headers.
type timeoutError struct{}

func (timeoutError) Error() string {
	return "request canceled (Client.Timeout exceeded while awaiting headers)"
}
func (timeoutError) Timeout() bool { return true }

// A binding whose answer was lost is looked for only where the request may have reached the server.
func TestAnswerLost(t *testing.T) {
	shoots := schema.GroupResource{Group: "core.gardener.cloud", Resource: "shoots"}
	put := func(err error) error { return &url.Error{Op: "Put", URL: "https://garden/binding", Err: err} }
	for _, tc := range []struct {
		name string
		err  error
		lost bool
	}{
		{"the connection ended before the answer", put(io.ErrUnexpectedEOF), true},
		{"the connection closed", put(io.EOF), true},
		{"the connection reset while reading the answer", put(&net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}), true},
		{"the client stopped waiting for the answer", put(timeoutError{}), true},
		{"the context ended while waiting", put(context.DeadlineExceeded), true},
		{"the caller stopped waiting (a stopping loop)", put(context.Canceled), true},
		{"the server timed out (504)", apierrors.NewTimeoutError("the binding took too long", 1), true},
		{"the server failed (500)", apierrors.NewServerTimeout(shoots, "update", 1), true},
		{"the connection was refused", put(&net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}), false},
		{"connecting timed out", put(&net.OpError{Op: "dial", Net: "tcp", Err: timeoutError{}}), false},
		{"the request could not be sent", put(&net.OpError{Op: "write", Net: "tcp", Err: syscall.EPIPE}), false},
		{"the server is unavailable (503)", apierrors.NewServiceUnavailable("restarting"), false},
		{"the server declined (429)", apierrors.NewTooManyRequests("slow down", 1), false},
		{"a conflict", apierrors.NewConflict(shoots, "s", errors.New("changed")), false},
		{"no request failed: an object read does not validate", errors.New("reading the garden cluster: cluster: Seed s: field spec.provider.type: required"), false},
		{"a certificate not trusted", put(errors.New("tls: failed to verify certificate: x509: certificate signed by unknown authority")), false},
	} {
		if got := answerLost(tc.err); got != tc.lost {
			t.Errorf("%s: answerLost(%v) = %v, want %v", tc.name, tc.err, got, tc.lost)
		}
	}
}

// An event's note is what the API server accepts: at most maxEventNote bytes of valid UTF-8, cut between two
// characters and marked with "..." when the message is longer.
func TestEventNote(t *testing.T) {
	long := strings.Repeat("a", maxEventNote-4)
	cases := []struct {
		name, note, want string
	}{
		{"short", `Scheduled to seed "aws-eu1"`, `Scheduled to seed "aws-eu1"`},
		{"exactly the limit", strings.Repeat("x", maxEventNote), strings.Repeat("x", maxEventNote)},
		{"one byte over", strings.Repeat("x", maxEventNote+1), strings.Repeat("x", maxEventNote-3) + "..."},
		{"a character across the cut", long + "äbcd", long + "..."},
		{"a character before the cut", long[1:] + "äbcde", long[1:] + "ä..."},
		{"invalid bytes made valid", "seed \xff", "seed \uFFFD"},
		{"invalid bytes made valid before the cut", "\xff" + strings.Repeat("x", maxEventNote-2), "\uFFFD" + strings.Repeat("x", maxEventNote-6) + "..."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := eventNote(tc.note)
			if got != tc.want {
				t.Errorf("eventNote(%d bytes) ends in %q (%d bytes), want %q (%d bytes)", len(tc.note), tail(got), len(got), tail(tc.want), len(tc.want))
			}
			if len(got) > maxEventNote || !utf8.ValidString(got) {
				t.Errorf("eventNote(%d bytes) is %d bytes, valid UTF-8 %t", len(tc.note), len(got), utf8.ValidString(got))
			}
		})
	}
}

// tail is the end of a note, for a failure's message.
func tail(note string) string {
	return note[max(0, len(note)-12):]
}
