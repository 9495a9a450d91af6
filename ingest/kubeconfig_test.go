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
	checkKubeconfigErrors(t, "other", []kubeconfigCase{
		{"--kubeconfig", garden, "", "kubeconfig " + garden + ": " + noContext},
		{"--kubeconfig missing", missing, "", "kubeconfig " + missing + ": no such file or directory"},
		{"$KUBECONFIG, a file of it missing", "", missing + string(os.PathListSeparator) + garden, "kubeconfig " + garden + ": " + noContext},
		{"none", "", "", "no kubeconfig given, none in $KUBECONFIG or ~/.kube/config, and not in a pod: " + noContext},
	})
}

// kubeconfigCase is a kubeconfig given as --kubeconfig or in $KUBECONFIG, and how the error it gives begins.
type kubeconfigCase struct {
	name, kubeconfig, env, want string
}

// checkKubeconfigErrors checks that RESTConfig and Garden, given each case's kubeconfig and the context, fail
// with the error the case wants. No ~/.kube/config is read.
func checkKubeconfigErrors(t *testing.T, context string, cases []kubeconfigCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("KUBECONFIG", tc.env)
			t.Setenv("HOME", t.TempDir())
			opts := ingest.ClientOptions{Kubeconfig: tc.kubeconfig, Context: context}
			if _, err := ingest.RESTConfig(opts); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("RESTConfig: %v, want an error starting %q", err, tc.want)
			}
			if _, _, err := ingest.Garden(opts); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("Garden: %v, want an error starting %q", err, tc.want)
			}
		})
	}
}

// ContextNamespace is the namespace of the kubeconfig context the options name, in which kubectl takes a name
// given without one: the current context's, or --context's; none for a context that sets none, and the error of
// every command for a context that does not exist.
func TestContextNamespace(t *testing.T) {
	garden := filepath.Join(t.TempDir(), "garden.yaml")
	const kubeconfig = `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
contexts:
- {name: project, context: {cluster: c, user: u, namespace: garden-dev}}
- {name: garden, context: {cluster: c, user: u}}
current-context: project
users: [{name: u, user: {token: t}}]
`
	if err := os.WriteFile(garden, []byte(kubeconfig), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", t.TempDir())
	for _, tc := range []struct {
		name, kubeconfig, env, context, want, wantErr string
	}{
		{name: "the current context's", kubeconfig: garden, want: "garden-dev"},
		{name: "--context's", kubeconfig: garden, context: "project", want: "garden-dev"},
		{name: "a context that sets none", kubeconfig: garden, context: "garden", want: ""},
		{name: "$KUBECONFIG's current context", env: garden, want: "garden-dev"},
		{name: "a context that does not exist", kubeconfig: garden, context: "other", wantErr: "kubeconfig " + garden + `: context "other" does not exist`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("KUBECONFIG", tc.env)
			got, err := ingest.ContextNamespace(ingest.ClientOptions{Kubeconfig: tc.kubeconfig, Context: tc.context})
			switch {
			case tc.wantErr != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.wantErr)):
				t.Fatalf("ContextNamespace = %q, %v; want an error starting %q", got, err, tc.wantErr)
			case tc.wantErr == "" && (err != nil || got != tc.want):
				t.Fatalf("ContextNamespace = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}
