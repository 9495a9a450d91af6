package model

import (
	"fmt"
	"testing"
)

func TestRepeats(t *testing.T) {
	for _, tc := range []struct {
		values []string
		want   string // index←first index of every repeat
	}{
		{nil, ""},
		{[]string{"a", "b", "c"}, ""},
		{[]string{"a", "b", "a"}, "2←0 "},
		{[]string{"a", "a", "a", "b", "b"}, "1←0 2←0 4←3 "},
	} {
		got := ""
		for i, first := range Repeats(tc.values) {
			got += fmt.Sprintf("%d←%d ", i, first)
		}
		if got != tc.want {
			t.Errorf("Repeats(%q) = %q, want %q", tc.values, got, tc.want)
		}
	}
	for range Repeats([]int{1, 1, 1}) {
		break // stopping early must not panic
	}
}
