package main

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"k8s.io/klog/v2"
	crlog "sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/seedplan/seedplan/internal/fixture"
)

// client-go (klog) and controller-runtime write where seedplan does, in its format and at its level: a JSON log
// holds only JSON records, and the run loop's cache and leader election are not silent. Both libraries take a
// logger once per process (TestMain, as main); their records follow the logger of the command that runs now.
func TestLibrariesLogThroughSeedplansLogger(t *testing.T) {
	defer fixture.RestoreLogging()()
	cache := crlog.Log.WithName("cache").WithValues("kind", "Shoot")
	for _, command := range []string{"first", "second"} {
		var out bytes.Buffer
		slog.SetDefault(slog.New(slog.NewJSONHandler(&out, &slog.HandlerOptions{Level: slog.LevelInfo})))

		slog.Info("from seedplan", "command", command)
		klog.InfoS("from client-go", "command", command)
		cache.Info("from controller-runtime", "command", command)
		cache.V(1).Info("below the level")
		klog.Flush()

		want := []string{
			`{"msg":"from seedplan","command":"` + command + `"}`,
			`{"msg":"from client-go","command":"` + command + `"}`,
			`{"msg":"from controller-runtime","kind":"Shoot","logger":"cache","command":"` + command + `"}`,
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		if len(lines) != len(want) {
			t.Fatalf("%s command: %d records, want %d:\n%s", command, len(lines), len(want), out.String())
		}
		for i, line := range lines {
			if got := withoutTimeAndLevel(t, line); got != want[i] {
				t.Errorf("%s command: record %s, want %s", command, got, want[i])
			}
		}
	}
}

// withoutTimeAndLevel is a JSON record without its time and level, its fields in their order.
func withoutTimeAndLevel(t *testing.T, line string) string {
	t.Helper()
	var fields []string
	decoder := json.NewDecoder(strings.NewReader(line))
	if _, err := decoder.Token(); err != nil {
		t.Fatalf("not a JSON record: %q", line)
	}
	for decoder.More() {
		key, _ := decoder.Token()
		var value json.RawMessage
		if err := decoder.Decode(&value); err != nil {
			t.Fatalf("not a JSON record: %q", line)
		}
		if key != "time" && key != "level" {
			fields = append(fields, `"`+key.(string)+`":`+string(value))
		}
	}
	return "{" + strings.Join(fields, ",") + "}"
}

// A command that takes no configuration logs as one with the default configuration does: in its format, to the
// command's standard error, not in the log package's format to the process's.
func TestCommandsWithoutConfigurationLogAsTheDefaults(t *testing.T) {
	out, err := runCombined(t, "generate", "--seeds", "2", "--shoots", "2", "--dir", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `level=INFO msg="landscape written"`) {
		t.Errorf("generate logged %q, want a record in slog's text format", out)
	}
}
