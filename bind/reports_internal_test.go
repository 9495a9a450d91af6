package bind

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/net/http2"
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

// proxied is a 503 as client-go reads kube-apiserver's proxy to an aggregated API server failing with what failed.
func proxied(resource schema.GroupResource, failed string) error {
	return apierrors.NewGenericServerResponse(503, "put", resource, "s", "error trying to reach service: "+failed, 0, true)
}

// timeoutError is a client's timeout, as net/http words one while it awaits the headers.
type timeoutError struct{}

func (timeoutError) Error() string {
	return "request canceled (Client.Timeout exceeded while awaiting headers)"
}
func (timeoutError) Timeout() bool { return true }

// http2Failure is the error of a request in flight on an HTTP/2 connection whose server reads it and never
// answers, as golang.org/x/net/http2 words it when the connection ends under the request: closed, once the
// request's headers arrived, or given up on, its pings unanswered from then on (pingTimeout > 0). Until the
// request arrives the server answers pings, so a test goroutine that is slow to send it finds the connection up.
func http2Failure(t *testing.T, pingTimeout time.Duration) error {
	t.Helper()
	client, server := net.Pipe()
	t.Cleanup(func() { _ = client.Close(); _ = server.Close() })
	connected := make(chan *http2.ClientConn, 1)
	pings := make(chan [8]byte, 16)
	// The server writes apart from reading: net.Pipe has no buffer, and the client writes its preface as it
	// connects, before it reads what the server writes (SETTINGS first, then the answers to pings).
	go func() {
		frames := http2.NewFramer(server, nil)
		if err := frames.WriteSettings(); err != nil {
			return
		}
		for data := range pings {
			if err := frames.WritePing(true, data); err != nil {
				return
			}
		}
	}()
	go func() {
		defer close(pings)
		if _, err := io.ReadFull(server, make([]byte, len(http2.ClientPreface))); err != nil {
			return
		}
		frames := http2.NewFramer(io.Discard, server)
		for requested := false; ; {
			frame, err := frames.ReadFrame()
			if err != nil {
				return
			}
			switch frame := frame.(type) {
			case *http2.HeadersFrame:
				requested = true
				if pingTimeout == 0 {
					_ = (<-connected).Close()
				}
			case *http2.PingFrame:
				if !requested && !frame.IsAck() {
					pings <- frame.Data
				}
			}
		}
	}()
	transport := &http2.Transport{ReadIdleTimeout: pingTimeout, PingTimeout: pingTimeout}
	conn, err := transport.NewClientConn(client)
	if err != nil {
		t.Fatal(err)
	}
	connected <- conn
	req, err := http.NewRequest(http.MethodPut, "https://garden/binding", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := conn.RoundTrip(req)
	if err == nil {
		_ = res.Body.Close()
		t.Fatal("a request that was never answered succeeded")
	}
	return err
}

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
		{"the server reset the HTTP/2 stream while answering", put(http2.StreamError{StreamID: 159, Code: http2.ErrCodeInternal}), true},
		{"the HTTP/2 connection was closed under the request (another request's write failed)", put(http2Failure(t, 0)), true},
		{"the HTTP/2 connection stopped answering pings", put(http2Failure(t, 20*time.Millisecond)), true},
		{"the server refused the HTTP/2 stream", put(http2.StreamError{StreamID: 159, Code: http2.ErrCodeRefusedStream}), false},
		{"the connection was refused", put(&net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}), false},
		{"connecting timed out", put(&net.OpError{Op: "dial", Net: "tcp", Err: timeoutError{}}), false},
		{"the request could not be sent", put(&net.OpError{Op: "write", Net: "tcp", Err: syscall.EPIPE}), false},
		{"kube-apiserver lost gardener-apiserver's answer (503)", proxied(shoots, "read tcp 127.0.0.1:43454->127.0.0.1:37735: read: connection reset by peer"), true},
		{"kube-apiserver's connection to gardener-apiserver ended (503)", proxied(shoots, "EOF"), true},
		{"kube-apiserver could not reach gardener-apiserver (503)", proxied(shoots, "dial tcp 127.0.0.1:37735: connect: connection refused"), false},
		{"kube-apiserver could not send to gardener-apiserver (503)", proxied(shoots, "write tcp 127.0.0.1:43454->127.0.0.1:37735: write: broken pipe"), false},
		{"the server is unavailable (503)", apierrors.NewServiceUnavailable("restarting"), false},
		{"an unexpected 503 of another kind", apierrors.NewGenericServerResponse(503, "put", shoots, "s", "service unavailable", 0, true), false},
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
