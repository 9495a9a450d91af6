package ingest

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// RestartPatience is how long a request that fails for a transient reason is tried again: long enough to outlast
// an API server's restart.
const RestartPatience = 30 * time.Second

// Transient reports whether a failed request may succeed when repeated: the API server did not decide on it
// (429 and 5xx say so), or the request did not reach it or its answer did not come back (a network error or
// timeout: client-go reports them as *url.Error, a net.Error). A request its caller gave up on (its context
// canceled) is not, nor is one to a server that is misconfigured, nor a failure that is no request's (an object
// read that does not decode or validate): repeating them fails the same way.
func Transient(err error) bool {
	if errors.Is(err, context.Canceled) || misconfiguredServer(err) {
		return false
	}
	var status apierrors.APIStatus
	if errors.As(err, &status) {
		code := status.Status().Code
		return code == http.StatusTooManyRequests || code >= http.StatusInternalServerError
	}
	var network net.Error
	return errors.As(err, &network) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
}

// misconfiguredServer reports whether a request failed for a reason of the client's configuration that no restart
// of the server changes, which kubectl too reports at once: the server's certificate is not trusted, its host name
// does not exist (DNS answered that it has no address; a temporary failure to look it up is transient), or it does
// not speak TLS.
func misconfiguredServer(err error) bool {
	var untrusted *tls.CertificateVerificationError
	var lookup *net.DNSError
	return errors.As(err, &untrusted) || errors.As(err, &lookup) && lookup.IsNotFound ||
		errors.As(err, new(tls.RecordHeaderError)) || errors.Is(err, http.ErrSchemeMismatch)
}

// RetryTransient calls request until it succeeds, fails for a reason a retry cannot change (not Transient: the API
// server decided, e.g. refused it), ctx ends, or patience has passed since its first failure: an unreachable,
// restarting or overloaded API server is waited for with exponential backoff, as client-go's event recorder does.
// The first failure is logged; the error of a request given up on is its last failure, saying for how long it was
// tried again.
func RetryTransient(ctx context.Context, patience time.Duration, request func() error) error {
	return retry(ctx, patience, Transient, request)
}

// RetryThroughRestart is RetryTransient for a request of a client the API server let in before (a job that read
// the garden already, a look after an answer a restart took): a refusal of the anonymous user (IdentityLost) is
// then a restarted server's, and waited out as well.
func RetryThroughRestart(ctx context.Context, patience time.Duration, request func() error) error {
	return retry(ctx, patience, func(err error) bool { return Transient(err) || IdentityLost(err) }, request)
}

// IdentityLost reports whether the API server refused a request as the anonymous user's. An aggregated API server
// such as gardener-apiserver refuses so every request kube-apiserver passes on to it in the moment between serving
// again after a restart and loading kube-apiserver's authentication configuration, which tells it whom the proxied
// request is from. kube-apiserver refuses a client without credentials in the same words, for good: only a client
// that knows it was let in before may take them for a restart's.
func IdentityLost(err error) bool {
	var status apierrors.APIStatus
	return apierrors.IsForbidden(err) && errors.As(err, &status) &&
		strings.Contains(status.Status().Message, `User "system:anonymous" `)
}

// retry is RetryTransient with retryable as the test of what is asked again.
func retry(ctx context.Context, patience time.Duration, retryable func(error) bool, request func() error) error {
	delay := 50 * time.Millisecond
	var giveUp time.Time
	for {
		err := request()
		if err == nil || !retryable(err) {
			return err
		}
		if giveUp.IsZero() {
			giveUp = time.Now().Add(patience)
			// Said once: a garden that does not answer would otherwise keep a command silent for the patience.
			slog.InfoContext(ctx, "The garden did not answer; asking again", "for", patience, "error", err)
		}
		wait := min(delay, time.Until(giveUp))
		if wait <= 0 {
			return fmt.Errorf("%w (retried for %v)", err, patience)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (retried until %w)", err, context.Cause(ctx))
		case <-time.After(wait):
		}
		delay = min(2*delay, 2*time.Second)
	}
}
