package cluster

import (
	"bytes"
	"errors"
	"log/slog"
	"testing"

	"github.com/go-logr/logr"
)

// The manager's log, as it reaches the operator through logr's slog bridge: only the elector's end after the stop
// sequence began is information; every other record, an error among them, is as the manager logs it.
func TestStopSequenceHandler(t *testing.T) {
	lost := errors.New(leaderElectionLost)
	cases := []struct {
		name  string
		level slog.Level // the least the operator's logger logs
		log   func(logr.Logger)
		want  string
	}{
		{
			name:  "the Lease released on a graceful stop",
			level: slog.LevelInfo,
			log:   func(l logr.Logger) { l.Error(lost, stopSequenceMessage) },
			want:  "level=INFO msg=\"Left the leader election\"\n",
		},
		{
			name:  "the same, from a named logger with values",
			level: slog.LevelInfo,
			log:   func(l logr.Logger) { l.WithName("manager").WithValues("id", "a").Error(lost, stopSequenceMessage) },
			want:  "level=INFO msg=\"Left the leader election\" id=a logger=manager\n",
		},
		{
			name:  "the same, to a logger of errors only",
			level: slog.LevelError,
			log:   func(l logr.Logger) { l.Error(lost, stopSequenceMessage) },
			want:  "",
		},
		{
			name:  "another runnable's error after the stop sequence",
			level: slog.LevelInfo,
			log:   func(l logr.Logger) { l.Error(errors.New("informer failed"), stopSequenceMessage) },
			want:  "level=ERROR msg=\"error received after stop sequence was engaged\" err=\"informer failed\"\n",
		},
		{
			name:  "the Lease lost under another message",
			level: slog.LevelInfo,
			log:   func(l logr.Logger) { l.Error(lost, "problem running manager") },
			want:  "level=ERROR msg=\"problem running manager\" err=\"leader election lost\"\n",
		},
		{
			name:  "the stop sequence's words as information",
			level: slog.LevelInfo,
			log:   func(l logr.Logger) { l.Info(stopSequenceMessage, "err", lost) },
			want:  "level=INFO msg=\"error received after stop sequence was engaged\" err=\"leader election lost\"\n",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			text := slog.NewTextHandler(&out, &slog.HandlerOptions{Level: tc.level, ReplaceAttr: withoutTime})
			tc.log(logr.FromSlogHandler(stopSequenceHandler{next: text}))
			if got := out.String(); got != tc.want {
				t.Errorf("logged %q, want %q", got, tc.want)
			}
		})
	}
}

// withoutTime drops the records' times, which a test cannot know.
func withoutTime(groups []string, a slog.Attr) slog.Attr {
	if len(groups) == 0 && a.Key == slog.TimeKey {
		return slog.Attr{}
	}
	return a
}
