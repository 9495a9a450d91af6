//go:build race

package ingest_test

// raceDetector is whether the tests run under the race detector, whose sync.Pool drops what is put in it at
// random: what a load allocates is then not what it allocates in a seedplan binary.
const raceDetector = true
