//go:build !race

package ingest_test

// raceDetector is whether the tests run under the race detector (race_on_test.go).
const raceDetector = false
