//go:build !race

package ingest

// RaceDetector is whether the tests run under the race detector (race_on_test.go).
const RaceDetector = false
