package ingest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seedplan/seedplan/ingest"
)

// A kubeconfig's error names the files it comes from: --kubeconfig, or the $KUBECONFIG files that exist; only
// when there is none does it say that none was given.
func TestKubeconfigErrorsNameTheirFiles(t *testing.T) {
	dir := t.TempDir()
	garden := filepath.Join(dir, "garden.yaml")
	const kubeconfig = `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
contexts: [{name: garden, context: {cluster: c, user: u}}]
current-context: garden
users: [{name: u, user: {token: t}}]
`
	if err := os.WriteFile(garden, []byte(kubeconfig), 0o600); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.yaml")
	const noContext = `context "other" does not exist`
	for _, tc := range []struct {
		name, kubeconfig, env, want string
	}{
		{"--kubeconfig", garden, "", "kubeconfig " + garden + ": " + noContext},
		{"$KUBECONFIG, a file of it missing", "", missing + string(os.PathListSeparator) + garden, "kubeconfig " + garden + ": " + noContext},
		{"none", "", "", "no kubeconfig given, none in $KUBECONFIG or ~/.kube/config, and not in a pod: " + noContext},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("KUBECONFIG", tc.env)
			t.Setenv("HOME", dir) // no ~/.kube/config
			_, err := ingest.RESTConfig(ingest.ClientOptions{Kubeconfig: tc.kubeconfig, Context: "other"})
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("%v, want an error starting %q", err, tc.want)
			}
		})
	}
}
