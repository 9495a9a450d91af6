package main

import (
	"context"
	"log/slog"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"
	crlog "sigs.k8s.io/controller-runtime/pkg/log"
)

// routeLibraryLogs sends client-go's records (klog: leader election, reflectors) and controller-runtime's (the
// run loop's cache) to the default logger of the moment, in its format and at its level, as seedplan's own: without
// it client-go wrote text lines into a JSON log, and controller-runtime dropped its records and, in a process
// older than 30 s, wrote a stack trace to standard error saying so. Both libraries take their logger once, before
// anything logs (klog's is not safe to change while client-go logs), so they get one that follows the default
// logger, which a command sets with slog.SetDefault, safe at any time.
func routeLibraryLogs() {
	followDefault := logr.FromSlogHandler(defaultHandler{})
	klog.SetLoggerWithOptions(followDefault, klog.ContextualLogger(true))
	crlog.SetLogger(followDefault)
}

// defaultHandler hands every record to the default logger's handler of the moment, with the attributes and
// groups added to it on the way.
type defaultHandler struct {
	derive func(slog.Handler) slog.Handler
}

func (h defaultHandler) handler() slog.Handler {
	if h.derive == nil {
		return slog.Default().Handler()
	}
	return h.derive(slog.Default().Handler())
}

// Enabled asks the default logger's handler.
func (h defaultHandler) Enabled(ctx context.Context, level slog.Level) bool {
	return h.handler().Enabled(ctx, level)
}

// Handle hands the record to the default logger's handler.
func (h defaultHandler) Handle(ctx context.Context, r slog.Record) error {
	return h.handler().Handle(ctx, r)
}

// WithAttrs adds attributes to every record, after what was added before.
func (h defaultHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return h.then(func(next slog.Handler) slog.Handler { return next.WithAttrs(attrs) })
}

// WithGroup opens a group for every record's later attributes.
func (h defaultHandler) WithGroup(name string) slog.Handler {
	return h.then(func(next slog.Handler) slog.Handler { return next.WithGroup(name) })
}

func (h defaultHandler) then(step func(slog.Handler) slog.Handler) defaultHandler {
	if h.derive == nil {
		return defaultHandler{derive: step}
	}
	previous := h.derive
	return defaultHandler{derive: func(next slog.Handler) slog.Handler { return step(previous(next)) }}
}
