package cluster

import (
	"context"
	"log/slog"
)

// What controller-runtime's manager logs, as an error, when its own stop sequence ends the leader election: the
// elector reports every end of it as "leader election lost" — a graceful stop's too, and a standby's that never
// led (kubernetes-sigs/controller-runtime#3535).
const (
	stopSequenceMessage = "error received after stop sequence was engaged"
	leaderElectionLost  = "leader election lost"
	// errKey is the attribute logr's slog bridge adds an Error's error as.
	errKey = "err"
)

// stopSequenceHandler hands the manager's records to next, but logs its "leader election lost" after the stop
// sequence as information, "Left the leader election": a graceful stop — every rollout of the Deployment — is no
// error to page an operator for. A Lease lost while the loop runs is still one: the manager's Start returns it,
// and Run returns it wrapped.
type stopSequenceHandler struct{ next slog.Handler }

// Enabled asks next.
func (h stopSequenceHandler) Enabled(ctx context.Context, level slog.Level) bool {
	return h.next.Enabled(ctx, level)
}

// Handle hands the record to next, the election's end on a stop as information, if next logs that.
func (h stopSequenceHandler) Handle(ctx context.Context, r slog.Record) error {
	if !stoppedLeading(r) {
		return h.next.Handle(ctx, r)
	}
	if !h.next.Enabled(ctx, slog.LevelInfo) {
		return nil
	}
	info := slog.NewRecord(r.Time, slog.LevelInfo, "Left the leader election", r.PC)
	r.Attrs(func(a slog.Attr) bool {
		if a.Key != errKey {
			info.AddAttrs(a) // the logger's name, which logr's bridge adds to the record
		}
		return true
	})
	return h.next.Handle(ctx, info)
}

// WithAttrs adds attributes to next.
func (h stopSequenceHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return stopSequenceHandler{next: h.next.WithAttrs(attrs)}
}

// WithGroup opens a group in next.
func (h stopSequenceHandler) WithGroup(name string) slog.Handler {
	return stopSequenceHandler{next: h.next.WithGroup(name)}
}

// stoppedLeading reports whether r is the manager's error record of the elector's OnStoppedLeading after the
// stop sequence began.
func stoppedLeading(r slog.Record) bool {
	if r.Level != slog.LevelError || r.Message != stopSequenceMessage {
		return false
	}
	lost := false
	r.Attrs(func(a slog.Attr) bool {
		err, ok := a.Value.Any().(error)
		lost = a.Key == errKey && ok && err.Error() == leaderElectionLost
		return !lost
	})
	return lost
}
