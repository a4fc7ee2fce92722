package cli_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// add --executor chooses where a task runs: a value that is not local or
// kubernetes, kubernetes with no cluster in the settings and kubernetes in
// a folder that is not a git repository are refused in one line with
// nothing stored; a valid choice is stored on the task.
func TestAddExecutor(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	useRepo(t, dir)
	for _, tc := range []struct{ value, repo, want string }{
		{"cloud", "", `Executor "cloud" is not local or kubernetes`},
		{"kubernetes", "", "the settings name none; set executor.image"},
		{"kubernetes", t.TempDir(), "needs a git repository"},
	} {
		args := []string{"add", "--executor", tc.value}
		if tc.repo != "" {
			args = append(args, "--repo", tc.repo)
		}
		r := runCLI(t, dir, "", append(args, "x")...)
		if r.code != 1 || !strings.Contains(r.stderr, tc.want) || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
			t.Fatalf("--executor %s: %+v", tc.value, r)
		}
	}
	if n := len(listJSON(t, dir)); n != 0 {
		t.Fatalf("%d tasks stored by refused adds", n)
	}
	if r := runCLI(t, dir, "", "settings", "set", "executor.image", "registry.example/boof-runner:1"); r.code != 0 {
		t.Fatalf("settings set: %+v", r)
	}
	for _, value := range []string{"kubernetes", "local"} {
		r := runCLI(t, dir, "", "add", "--executor", value, "x")
		if r.code != 0 {
			t.Fatalf("--executor %s: %+v", value, r)
		}
		s := runCLI(t, dir, "", "show", "--json", strings.TrimSpace(r.stdout))
		if s.code != 0 || !strings.Contains(strings.ReplaceAll(s.stdout, " ", ""), `"executor":"`+value+`"`) {
			t.Fatalf("show after --executor %s: %+v", value, s)
		}
	}
}

// A task added to run in the cluster while the settings named one, and
// claimed after they stopped naming any, fails at once with one line that
// says so, instead of waiting in the queue for a cluster slot that never
// comes (the settings name no cluster, so the cluster has no slots); the
// local task beside it runs to done.
func TestClusterTaskWithoutClusterFailsSaying(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	useRepo(t, data)
	mustCLI(t, data, "", "settings", "set", "executor.image", "registry.example/boof-runner:1")
	remote := strings.TrimSpace(mustCLI(t, data, "", "add", "--executor", "kubernetes", "Runs in the cluster"))
	mustCLI(t, data, "", "settings", "set", "executor.image", "null")
	local := strings.TrimSpace(mustCLI(t, data, "", "add", "Runs here"))
	mustCLI(t, data, "", "runner", "--until-idle")
	var got struct {
		Status string `json:"status"`
		Error  string `json:"error"`
	}
	if err := json.Unmarshal([]byte(mustCLI(t, data, "", "show", "--json", remote)), &got); err != nil {
		t.Fatal(err)
	}
	if got.Status != "failed" || !strings.Contains(got.Error, "runs in a cluster, but settings.executor names none") || strings.Contains(got.Error, "\n") {
		t.Fatalf("the cluster task without a cluster: %s %q", got.Status, got.Error)
	}
	if st := statusOf(t, data, local); st != "done" {
		t.Fatalf("the local task: %s", st)
	}
}
