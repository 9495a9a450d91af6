package model

import (
	"math"
	"strconv"
	"testing"
)

func TestFormatFraction(t *testing.T) {
	for _, tc := range []struct {
		fraction float64
		want     string
	}{
		{0.8, "0.80"},
		{1, "1.00"},
		{0.05, "0.05"},
		{0.805, "0.805"},
		{0.8049999, "0.8049999"},
		{0.0000001, "1e-07"},
		{1e-300, "1e-300"},
		{math.Nextafter(0.3, 1), "0.30000000000000004"},
	} {
		got := FormatFraction(tc.fraction)
		if got != tc.want {
			t.Errorf("FormatFraction(%v) = %q, want %q", tc.fraction, got, tc.want)
		}
		if back, err := strconv.ParseFloat(got, 64); err != nil || back != tc.fraction {
			t.Errorf("FormatFraction(%v) = %q reads back as %v, %v", tc.fraction, got, back, err)
		}
	}
}
