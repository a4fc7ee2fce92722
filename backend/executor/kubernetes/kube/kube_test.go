package kube

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/executor/wire"
)

// The Job of a task's run: labelled with the task, never retried, bounded
// by the deadline, the Secret as environment and never inside the shipped
// input, the base inline in the ConfigMap or fetched from its URL by an
// init container.
func TestObjectsShapeTheTasksJob(t *testing.T) {
	spec := wire.Spec{Namespace: "agents", TaskID: "t-1", Job: wire.JobName("t-1", 1), Image: "img:1",
		Input: []byte(`{"task":1}`), Bundle: []byte("bundle"), SecretName: "agent-keys", ActiveDeadlineSeconds: 3600,
		Resources: map[string]map[string]string{"requests": {"cpu": "2"}, "limits": {"memory": "4Gi"}}}
	cm, job, err := Objects(spec)
	if err != nil {
		t.Fatal(err)
	}
	if job.Labels[wire.LabelTask] != "t-1" || job.Spec.Template.Labels[wire.LabelTask] != "t-1" || cm.Labels[wire.LabelTask] != "t-1" {
		t.Fatalf("labels %v %v %v", job.Labels, job.Spec.Template.Labels, cm.Labels)
	}
	if *job.Spec.BackoffLimit != 0 || *job.Spec.ActiveDeadlineSeconds != 3600 || job.Spec.Template.Spec.RestartPolicy != "Never" {
		t.Fatalf("job spec %+v", job.Spec)
	}
	c := job.Spec.Template.Spec.Containers[0]
	if len(c.EnvFrom) != 1 || c.EnvFrom[0].SecretRef.Name != "agent-keys" {
		t.Fatalf("env from %+v", c.EnvFrom)
	}
	if c.Resources.Requests.Cpu().String() != "2" || c.Resources.Limits.Memory().String() != "4Gi" {
		t.Fatalf("resources %+v", c.Resources)
	}
	if string(cm.BinaryData[wire.BaseFile]) != "bundle" || string(cm.BinaryData[wire.TaskFile]) != `{"task":1}` || len(cm.Data) != 0 {
		t.Fatalf("config map %+v", cm)
	}
	if !slices.Equal(c.Command, []string{"boof-runner", "exec-task", "--in", inDir, "--work", workDir}) || len(job.Spec.Template.Spec.InitContainers) != 0 {
		t.Fatalf("command %v", c.Command)
	}

	spec.Bundle, spec.BundleURL = nil, "http://desk:8000/bundles/x"
	cm, job, err = Objects(spec)
	if err != nil {
		t.Fatal(err)
	}
	inits := job.Spec.Template.Spec.InitContainers
	if _, inline := cm.BinaryData[wire.BaseFile]; inline || len(inits) != 1 || !slices.Contains(inits[0].Command, spec.BundleURL) ||
		!slices.Contains(job.Spec.Template.Spec.Containers[0].Command, "--bundle") {
		t.Fatalf("a fetched base: config map %v, init containers %+v", cm.BinaryData, inits)
	}

	spec.Resources = map[string]map[string]string{"requests": {"cpu": "lots"}}
	if _, _, err := Objects(spec); err == nil || err.(*Error).Class != wire.ErrorConfig {
		t.Fatalf("a bad quantity: %v", err)
	}
}

// exec-remote on a kubeconfig without the context named, and on a cluster
// nothing listens at, prints one error status of the right class and ends;
// nothing else is printed.
func TestExecRemoteSaysWhyItCannotStart(t *testing.T) {
	kc := filepath.Join(t.TempDir(), "kubeconfig")
	cfg := `apiVersion: v1
kind: Config
clusters:
- name: down
  cluster: {server: "https://127.0.0.1:1", insecure-skip-tls-verify: true}
users:
- name: u
  user: {token: t}
contexts:
- name: b
  context: {cluster: down, user: u}
- name: a
  context: {cluster: down, user: u}
current-context: a
`
	if err := os.WriteFile(kc, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ context, class, want string }{
		{"nope", wire.ErrorConfig, `the kubeconfig ` + kc + ` has no context "nope" (it has "a", "b")`},
		{"a", wire.ErrorUnreachable, "the API server at https://127.0.0.1:1 cannot be reached"},
	} {
		spec, _ := json.Marshal(wire.Spec{Kubeconfig: kc, Context: tc.context, Namespace: "default", TaskID: "t-1", Job: wire.JobName("t-1", 1), Image: "img"})
		// stdin stays open: its end would be the desktop gone.
		in, w := io.Pipe()
		go func() { _, _ = w.Write(append(spec, '\n')) }()
		var out bytes.Buffer
		code := ExecRemote(context.Background(), in, &out)
		w.Close()
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		var s wire.Status
		if len(lines) != 1 || json.Unmarshal([]byte(lines[0]), &s) != nil {
			t.Fatalf("context %q: exit %d, output %q", tc.context, code, out.String())
		}
		if code == 0 || s.Kind != wire.StatusError || s.Class != tc.class || !strings.HasPrefix(s.Message, tc.want) {
			t.Fatalf("context %q: exit %d, status %+v, want class %s and %q", tc.context, code, s, tc.class, tc.want)
		}
	}
}
