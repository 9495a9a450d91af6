//go:build race

package ingest

// RaceDetector is whether the tests run under the race detector. Its sync.Pool drops what is put in it at random,
// so what a load allocates is then not what it allocates in a seedplan binary; and a test that runs on one
// goroutine has no race to find, only ten times the time to take (make test runs the package without it too).
// Exported for the package's external tests.
const RaceDetector = true
