package solver

import (
	"fmt"
	"time"
)

// Config selects and tunes a window solver.
type Config struct {
	// Name is "lp" (the default) or "greedy".
	Name string
	// Timeout bounds the LP; when it runs out the greedy assignment is used (fallback "timeout").
	Timeout time.Duration
	Weights Weights
}

// New returns the configured solver.
func New(cfg Config) (Solver, error) {
	switch cfg.Name {
	case "lp", "":
		return LP{Weights: cfg.Weights, Timeout: cfg.Timeout}, nil
	case (Greedy{}).Name():
		return Greedy{}, nil
	}
	return nil, fmt.Errorf("unknown solver %q (lp or greedy)", cfg.Name)
}
