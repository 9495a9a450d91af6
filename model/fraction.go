package model

import (
	"strconv"
)

// FormatFraction writes a fraction such as a target utilization for people: with two decimals when they say it
// exactly, as configurations mostly give it (0.80), and otherwise with as many digits as it takes (0.805, 1e-07),
// so that a message never states a bound other than the one applied.
func FormatFraction(f float64) string {
	if twoDecimals := strconv.FormatFloat(f, 'f', 2, 64); parsesTo(twoDecimals, f) {
		return twoDecimals
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// parsesTo reports whether s reads back as exactly f.
func parsesTo(s string, f float64) bool {
	parsed, err := strconv.ParseFloat(s, 64)
	return err == nil && parsed == f
}
