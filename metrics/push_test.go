package metrics_test

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/seedplan/seedplan/metrics"
)

// A Pushgateway that takes the connection and never answers fails the push once the timeout has passed, instead
// of keeping the job from ending; a cancelled context ends a push without a timeout.
func TestPushWaitsNoLongerThanItsTimeout(t *testing.T) {
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	go func() {
		var held []net.Conn // open, never answered
		for {
			conn, err := silent.Accept()
			if err != nil {
				for _, c := range held {
					_ = c.Close()
				}
				return
			}
			held = append(held, conn)
		}
	}()
	url := "http://" + silent.Addr().String()
	m := metrics.NewMetrics(false)
	if err := m.Push(context.Background(), url, "seedplan", 100*time.Millisecond); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("push to a silent Pushgateway: %v, want the timeout's error", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	if err := m.Push(ctx, url, "seedplan", 0); !errors.Is(err, context.Canceled) {
		t.Fatalf("push without timeout, cancelled: %v, want the cancellation", err)
	}
}
