package bench

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"
)

// ProgressBar draws a one-line progress bar, but only once a run has taken longer than its delay, so short runs
// print nothing. Use it only on a terminal.
type ProgressBar struct {
	out   io.Writer
	start time.Time
	delay time.Duration
	drawn bool
}

// NewProgressBar starts the clock of a progress bar writing to out.
func NewProgressBar(out io.Writer, delay time.Duration) *ProgressBar {
	return &ProgressBar{out: out, start: time.Now(), delay: delay}
}

// Update redraws the bar: done of total windows planned, and what was planned last.
func (p *ProgressBar) Update(done, total int, label string) {
	if total <= 0 || time.Since(p.start) < p.delay {
		return
	}
	const width = 30
	filled := width * done / total
	fmt.Fprintf(p.out, "\r[%s%s] %d/%d %s, %s\x1b[K", strings.Repeat("#", filled), strings.Repeat(" ", width-filled),
		done, total, label, time.Since(p.start).Round(time.Second))
	p.drawn = true
}

// Finish clears the bar's line if it was drawn.
func (p *ProgressBar) Finish() {
	if p.drawn {
		fmt.Fprint(p.out, "\r\x1b[K")
		p.drawn = false
	}
}

// ProgressLog logs a line of progress at most every interval: a bench piped or in CI is not silent for minutes.
type ProgressLog struct {
	start    time.Time
	last     time.Time
	interval time.Duration
}

// NewProgressLog starts the clock of a progress log.
func NewProgressLog(interval time.Duration) *ProgressLog {
	now := time.Now()
	return &ProgressLog{start: now, last: now, interval: interval}
}

// Update logs done of total windows planned, and what was planned last, when interval has passed since the last
// line, and always for the last window.
func (p *ProgressLog) Update(done, total int, label string) {
	if time.Since(p.last) < p.interval && done != total {
		return
	}
	p.last = time.Now()
	slog.Info("bench progress", "done", done, "total", total, "last", label, "elapsed", time.Since(p.start).Round(time.Second))
}
