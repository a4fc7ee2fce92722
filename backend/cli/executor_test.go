package cli_test

import (
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
