package userfile_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/internal/gosource"
)

// plainReaders are the production files that may read with os.ReadFile or
// os.Open, each with why nothing there can be a named pipe or a device. Every
// other file reads what it keeps through ReadFile, ReadKept or OpenKept (a
// regular file only, opened without blocking), and what a user names
// through Open or Read.
var plainReaders = map[string]string{
	"backend/atomicfile/syncdir_unix.go": "opens a folder it just wrote into, to fsync it",
	"backend/proc/steptag_linux.go":      "reads /proc",
	"backend/proc/tree_linux.go":         "reads /proc",
	"backend/proc/environ_linux.go":      "reads /proc",
	"backend/proc/cgroup_linux.go":       "reads /proc and the cgroup file system",
	"backend/proc/holders_linux.go":      "reads /proc",
	"backend/proc/children_linux.go":     "reads /proc",
	"backend/runner/alive.go":            "reads /proc",
	"backend/agent/mock/misbehave.go":    "the mock agent, a test tool reading its own scripted files",
	"backend/agent/mock/work.go":         "the mock agent, a test tool reading its own scripted files",
	"backend/agent/mock/received.go":     "the mock agent, a test tool reading its own scripted files",
	"backend/agent/mock/agentmain.go":    "the mock agent, a test tool reading its own scripted files",
	"backend/agent/mock/state.go":        "the mock agent, a test tool reading its own scripted files",
	"backend/agent/mock/hostile.go":      "the mock agent, a test tool reading its own files and /proc",
}

// TestNoBlockingReadOutsideThisPackage walks every non-test Go file of the
// repository (not node_modules or testdata) and refuses os.ReadFile and
// os.Open outside this package and plainReaders: a named pipe put where a
// kept file was expected held the command for ever (forge-tokens.json
// made a FIFO: pr login and pr logout hung, and SIGTERM did not end them).
func TestNoBlockingReadOutsideThisPackage(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	found, stale, err := gosource.Audit(root, map[string][]string{"os": {"ReadFile", "Open"}}, func(rel string) bool {
		return strings.HasPrefix(rel, "backend/userfile/") || strings.HasPrefix(rel, "scripts/") || inTestHelper(rel)
	}, plainReaders)
	if err != nil {
		t.Fatal(err)
	}
	if len(found) > 0 {
		t.Errorf("plain reads outside backend/userfile (use userfile.ReadKept, ReadFile or OpenKept, or add the file to plainReaders with why no pipe can be there):\n  %s",
			strings.Join(found, "\n  "))
	}
	for _, rel := range stale {
		t.Errorf("plainReaders names %s, which reads nothing plainly: remove it", rel)
	}
}

// inTestHelper: a file of a package only tests import (forgetest,
// k8stest, clitest: a folder named *test) reads its own fixtures.
func inTestHelper(rel string) bool {
	parts := strings.Split(rel, "/")
	for _, p := range parts[:len(parts)-1] {
		if strings.HasSuffix(p, "test") {
			return true
		}
	}
	return false
}

// TestPlainReadCheckFindsCalls: the check sees a read however os is named.
func TestPlainReadCheckFindsCalls(t *testing.T) {
	src := `package p

import xos "os"

func f() {
	_, _ = xos.ReadFile("a")
	g := xos.Open
	_ = g
	_, _ = xos.OpenFile("a", 0, 0)
}
`
	got := plainReads(t, "p.go", []byte(src))
	want := []string{"p.go:6: xos.ReadFile", "p.go:7: xos.Open"}
	if !slices.Equal(got, want) {
		t.Fatalf("found %v, want %v", got, want)
	}
}

// plainReads lists the uses of os.ReadFile and os.Open in the Go source src
// of file rel, as "rel:line: pkg.Func".
func plainReads(t *testing.T, rel string, src []byte) []string {
	t.Helper()
	out, err := gosource.Uses(rel, src, map[string][]string{"os": {"ReadFile", "Open"}})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
