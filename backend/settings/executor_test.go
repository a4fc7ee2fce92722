package settings

import (
	"path/filepath"
	"reflect"
	"testing"
)

// settings.executor is set through the file like any key (resources
// included), its defaults fill what is left out, and every bad key is named
// in user terms without changing the file.
func TestExecutorKeys(t *testing.T) {
	f := NewFile(filepath.Join(t.TempDir(), "settings.json"), testCatalog())
	if _, err := f.Set("executor.kind", "kubernetes"); err == nil {
		t.Fatal("executor.kind=kubernetes accepted without an image")
	}
	s, err := f.Set("executor.image", "registry.example/boof-runner:1")
	if err != nil {
		t.Fatal(err)
	}
	for key, val := range map[string]string{"executor.kind": "kubernetes", "executor.namespace": "agents",
		"executor.resources.requests.cpu": "500m", "executor.resources.limits.memory": "4Gi", "executor.concurrency": "8"} {
		if s, err = f.Set(key, val); err != nil {
			t.Fatalf("set %s: %v", key, err)
		}
	}
	e := s.Executor
	if e.Kind != ExecutorKubernetes || e.EffectiveNamespace() != "agents" || e.EffectiveConcurrency() != 8 ||
		e.Resources["requests"]["cpu"] != "500m" || e.Resources["limits"]["memory"] != "4Gi" {
		t.Fatalf("executor %+v", e)
	}
	d := Defaults(testCatalog()).Executor
	if d.Kind != ExecutorLocal || d.EffectiveNamespace() != DefaultExecutorNamespace || d.EffectiveConcurrency() != DefaultExecutorConcurrency ||
		d.EffectiveStepDeadlineMinutes() != DefaultStepDeadlineMinutes || d.EffectiveImagePullTimeout() != DefaultImagePullTimeoutSeconds {
		t.Fatalf("defaults %+v", d)
	}
	before, err := f.Load()
	if err != nil {
		t.Fatal(err)
	}
	for key, val := range map[string]string{"executor.kind": "nomad", "executor.namespace": "Not_A_Name",
		"executor.resources.requests.cpu": "lots", "executor.concurrency": "-1", "executor.bundleAddress": "nowhere"} {
		if _, err := f.Set(key, val); err == nil {
			t.Errorf("%s=%s accepted", key, val)
		}
	}
	if after, err := f.Load(); err != nil || !reflect.DeepEqual(after.Executor, before.Executor) {
		t.Fatalf("a refused key changed the file: %+v %v", after.Executor, err)
	}
	b := Defaults(testCatalog())
	b.Executor = Executor{Kind: "nomad", Namespace: "Bad", ServiceAccount: "a b", StepDeadlineMinutes: -2,
		Resources: map[string]map[string]string{"requests": {"cpu": "x"}, "extras": {}}}
	want := []string{`executor.kind must be kubernetes or left out (got "nomad")`,
		`executor.namespace must be a Kubernetes namespace name (got "Bad")`,
		`executor.serviceAccount must be a Kubernetes object name (got "a b")`,
		"executor.stepDeadlineMinutes must be between 1 and 1440 (got -2)",
		`executor.resources holds requests and limits only (got "extras")`,
		`executor.resources.requests.cpu must be a resource quantity such as 500m or 2Gi (got "x")`}
	if got := keyErrors(t, b.Validate()); !reflect.DeepEqual(got, want) {
		t.Errorf("got %q", got)
	}
}
