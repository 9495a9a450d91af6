package ingest_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/seedplan/seedplan/ingest"
)

// A request is sent again while the API server cannot decide on it (unreachable, overloaded, failing) and never
// when it refused it; after a restart (RetryThroughRestart), a request refused for the anonymous user is asked
// again too, while a refusal of the client's own user stays its answer.
func TestRetry(t *testing.T) {
	shoots := schema.GroupResource{Group: "core.gardener.cloud", Resource: "shoots"}
	anonymous := apierrors.NewForbidden(shoots, "s", errors.New(`User "system:anonymous" cannot get resource "shoots" in API group "core.gardener.cloud" in the namespace "garden-a"`))
	named := apierrors.NewForbidden(shoots, "s", errors.New(`User "seedplan" cannot get resource "shoots" in API group "core.gardener.cloud" in the namespace "garden-a"`))
	transient, throughRestart := ingest.RetryTransient, ingest.RetryThroughRestart
	for _, tc := range []struct {
		name     string
		retry    func(context.Context, time.Duration, func() error) error
		failures []error
		calls    int
		fails    bool
	}{
		{"written at once", transient, nil, 1, false},
		{"connection refused, then written", transient, []error{syscall.ECONNREFUSED}, 2, false},
		{"503 and 429, then written", transient, []error{apierrors.NewServiceUnavailable("restarting"),
			apierrors.NewTooManyRequests("slow down", 1)}, 3, false},
		{"a server timeout, then written", transient, []error{apierrors.NewServerTimeout(shoots, "create", 1)}, 2, false},
		{"refused by validation", transient, []error{apierrors.NewInvalid(schema.GroupKind{Kind: "Event"}, "e", nil)}, 1, true},
		{"forbidden", transient, []error{apierrors.NewForbidden(shoots, "s", errors.New("no"))}, 1, true},
		{"transient only: refused for the anonymous user", transient, []error{anonymous}, 1, true},
		{"through a restart: refused for the anonymous user twice, then read", throughRestart, []error{anonymous, anonymous}, 3, false},
		{"through a restart: unavailable, refused for the anonymous user, then read", throughRestart,
			[]error{apierrors.NewServiceUnavailable("restarting"), fmt.Errorf("looking: %w", anonymous)}, 3, false},
		{"through a restart: refused for the client's own user", throughRestart, []error{named}, 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			err := tc.retry(context.Background(), time.Minute, func() error {
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

// A refusal is the anonymous user's by the words of kube-apiserver's authorizer, wherever they are wrapped.
func TestIdentityLost(t *testing.T) {
	seeds := schema.GroupResource{Group: "core.gardener.cloud", Resource: "seeds"}
	refusal := func(user string) error {
		return apierrors.NewForbidden(seeds, "", fmt.Errorf(`User %q cannot list resource "seeds" in API group "core.gardener.cloud" at the cluster scope`, user))
	}
	for _, tc := range []struct {
		name string
		err  error
		lost bool
	}{
		{"refused for the anonymous user", refusal("system:anonymous"), true},
		{"refused for the anonymous user, wrapped", fmt.Errorf("listing Seeds: %w", refusal("system:anonymous")), true},
		{"refused for the client's own user", refusal("seedplan"), false},
		{"refused for a user whose name begins like the anonymous user's", refusal("system:anonymous-reader"), false},
		{"unavailable", apierrors.NewServiceUnavailable(`User "system:anonymous" `), false},
		{"no error", nil, false},
	} {
		if got := ingest.IdentityLost(tc.err); got != tc.lost {
			t.Errorf("%s: IdentityLost(%v) = %v, want %v", tc.name, tc.err, got, tc.lost)
		}
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
		{"the server's host name does not exist", wrapped(&url.Error{Op: "Get", URL: "https://garden/shoot",
			Err: &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "garden", IsNotFound: true}}}), false},
		{"the server does not speak TLS", wrapped(&url.Error{Op: "Get", URL: "https://garden/shoot",
			Err: tls.RecordHeaderError{Msg: "first record does not look like a TLS handshake"}}), false},
		{"the server answered an HTTPS request in plain HTTP", wrapped(&url.Error{Op: "Get", URL: "https://garden/shoot", Err: http.ErrSchemeMismatch}), false},
		{"the server's host name could not be looked up now", wrapped(&url.Error{Op: "Get", URL: "https://garden/shoot",
			Err: &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "server misbehaving", Name: "garden", IsTemporary: true}}}), true},
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
		if got := ingest.Transient(tc.err); got != tc.transient {
			t.Errorf("%s: Transient(%v) = %v, want %v", tc.name, tc.err, got, tc.transient)
		}
	}
}

// Retries end with the context, saying what failed last.
func TestRetryTransientEndsWithTheContext(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	err := ingest.RetryTransient(ctx, time.Minute, func() error { return syscall.ECONNREFUSED })
	if !errors.Is(err, syscall.ECONNREFUSED) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v; want the last failure and the deadline", err)
	}
}

// Retries end once patience has passed since the first failure, saying what failed last and for how long it was
// tried again; a request that fails at once for good is not tried again.
func TestRetryTransientGivesUp(t *testing.T) {
	calls := 0
	start := time.Now()
	err := ingest.RetryTransient(context.Background(), 300*time.Millisecond, func() error {
		calls++
		return apierrors.NewServiceUnavailable("restarting")
	})
	if !apierrors.IsServiceUnavailable(err) || !strings.HasSuffix(err.Error(), "(retried for 300ms)") || calls < 3 {
		t.Fatalf("%d calls, error %v; want the 503, retried for 300ms", calls, err)
	}
	if elapsed := time.Since(start); elapsed < 300*time.Millisecond {
		t.Fatalf("gave up after %v, before its patience", elapsed)
	}
}
