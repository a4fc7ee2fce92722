package atomicfile

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/internal/gosource"
)

// notWrites are the production files that rename without writing a file
// first, each with its reason. Nothing else renames: a file written then
// renamed goes through this package, which fsyncs it and its folder.
var notWrites = map[string]string{
	"backend/settings/reset.go": "moves a settings file no reader accepts aside, as it is (settings reset); nothing is written",
}

// renamers are the functions that rename a file, by package.
var renamers = map[string][]string{
	"os":                    {"Rename"},
	"syscall":               {"Rename", "Renameat"},
	"golang.org/x/sys/unix": {"Rename", "Renameat", "Renameat2", "RenameatxNp", "RenamexNp"},
}

// TestNoRenameOutsideThisPackage walks every non-test Go file of the
// repository (not node_modules or testdata) and refuses a call of a rename
// function outside this package and notWrites.
func TestNoRenameOutsideThisPackage(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	found, stale, err := gosource.Audit(root, renamers, func(rel string) bool { return strings.HasPrefix(rel, "backend/atomicfile/") }, notWrites)
	if err != nil {
		t.Fatal(err)
	}
	if len(found) > 0 {
		t.Errorf("renames outside backend/atomicfile (write the file with atomicfile.WriteFile or Create/Commit, or add it to notWrites with why it is no write):\n  %s",
			strings.Join(found, "\n  "))
	}
	for _, rel := range stale {
		t.Errorf("notWrites names %s, which renames nothing: remove it", rel)
	}
}

// TestRenameCheckFindsCalls: the check sees a rename however os is named.
func TestRenameCheckFindsCalls(t *testing.T) {
	src := `package p

import (
	xos "os"
	"syscall"
)

func f() {
	_ = xos.Rename("a", "b")
	g := syscall.Rename
	_ = g
}

func os() {} // a function named os is not the package
`
	got := renames(t, "p.go", []byte(src))
	want := []string{"p.go:9: xos.Rename", "p.go:10: syscall.Rename"}
	if !slices.Equal(got, want) {
		t.Fatalf("found %v, want %v", got, want)
	}
}

// renames lists the uses of a rename function in the Go source src of file
// rel, as "rel:line: pkg.Func".
func renames(t *testing.T, rel string, src []byte) []string {
	t.Helper()
	out, err := gosource.Uses(rel, src, renamers)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
