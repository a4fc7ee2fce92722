// Package backend_test enforces the walls of DESIGN.md: backend/ never
// imports app/ or UI code, backend/task does no I/O, only the desktop shell
// (app/shell, one file of it) calls Wails, and the root holds main.go only.
package backend_test

import (
	"encoding/json"
	"go/parser"
	"go/token"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

type pkg struct {
	ImportPath   string
	Dir          string
	GoFiles      []string
	TestGoFiles  []string
	XTestGoFiles []string
	Imports      []string
	Deps         []string
}

func listPackages(t *testing.T, pattern string) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-json=ImportPath,Dir,GoFiles,TestGoFiles,XTestGoFiles,Imports,Deps", pattern)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(out)
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("go list: %v", err)
	}
	if len(pkgs) == 0 {
		t.Fatal("go list found no packages")
	}
	return pkgs
}

const module = "github.com/boof-runner/boof-runner"

// uiImport reports whether an import path is UI: the app/ services, Wails, or
// a tray or toolkit library.
func uiImport(path string) bool {
	for _, p := range []string{
		module + "/app", "github.com/wailsapp/", "fyne.io/", "github.com/getlantern/systray",
		"github.com/energye/systray", "github.com/gotk3/", "github.com/webview/",
	} {
		if path == strings.TrimSuffix(p, "/") || strings.HasPrefix(path, p) {
			return true
		}
	}
	return false
}

func TestBackendNeverImportsUI(t *testing.T) {
	for _, p := range listPackages(t, module+"/backend/...") {
		for _, d := range p.Deps {
			if uiImport(d) {
				t.Errorf("%s depends on %s: backend/ must not import app/, Wails or UI code", p.ImportPath, d)
			}
		}
	}
}

func TestTaskPackageDoesNoIO(t *testing.T) {
	forbidden := []string{"os", "os/exec", "net", "net/http", "database/sql", "syscall", "io/ioutil", "path/filepath", "log", "log/slog"}
	for _, p := range listPackages(t, module+"/backend/task") {
		for _, imp := range p.Imports {
			for _, f := range forbidden {
				if imp == f {
					t.Errorf("%s imports %s: the domain package does no I/O", p.ImportPath, imp)
				}
			}
			if strings.HasPrefix(imp, module+"/") {
				t.Errorf("%s imports %s: the domain package depends on nothing in the project", p.ImportPath, imp)
			}
		}
	}
}

// TestWallCheckCatchesUI proves the check can fail: the root package does
// import Wails.
func TestWallCheckCatchesUI(t *testing.T) {
	found := false
	for _, p := range listPackages(t, module) {
		for _, d := range p.Deps {
			if uiImport(d) {
				found = true
			}
		}
	}
	if !found {
		t.Fatal("the wall check did not see Wails in the root package's deps")
	}
}

// Where Wails may be named: the shell package, and in it one file.
const (
	shellPkg   = module + "/app/shell"
	wailsFile  = "wails.go"
	wailsPath  = "github.com/wailsapp/"
	wailsRTime = "github.com/wailsapp/wails/v2/pkg/runtime"
)

func isWails(path string) bool { return strings.HasPrefix(path, wailsPath) }

// TestOnlyTheShellCallsWails: no package of the module but app/shell imports
// Wails (the root's main.go included), and the bound services of app/
// depend on no Wails or tray code even indirectly.
func TestOnlyTheShellCallsWails(t *testing.T) {
	shellSeen := false
	for _, p := range listPackages(t, module+"/...") {
		for _, imp := range p.Imports {
			if isWails(imp) && p.ImportPath != shellPkg {
				t.Errorf("%s imports %s: only %s calls Wails", p.ImportPath, imp, shellPkg)
			}
			if p.ImportPath == shellPkg && imp == wailsRTime {
				shellSeen = true
			}
		}
		if p.ImportPath == module+"/app" {
			for _, d := range p.Deps {
				if uiImport(d) {
					t.Errorf("%s depends on %s: the bound services reach the window through interfaces the shell implements", p.ImportPath, d)
				}
			}
		}
	}
	// The check can fail: the shell does import the runtime.
	if !shellSeen {
		t.Fatalf("%s does not import %s: the wall check sees nothing", shellPkg, wailsRTime)
	}
}

// TestWailsCallsAreInOneFileOfTheShell: within app/shell (tests included),
// only wails.go imports a Wails package.
func TestWailsCallsAreInOneFileOfTheShell(t *testing.T) {
	pkgs := listPackages(t, shellPkg)
	p := pkgs[0]
	fset := token.NewFileSet()
	var inWails []string
	for _, name := range slices.Concat(p.GoFiles, p.TestGoFiles, p.XTestGoFiles) {
		f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if isWails(path) {
				inWails = append(inWails, name)
				break
			}
		}
	}
	if !slices.Equal(inWails, []string{wailsFile}) {
		t.Fatalf("files of %s importing Wails: %q, want only %s", shellPkg, inWails, wailsFile)
	}
}

// TestRootHoldsMainOnly: the module root is wiring, main.go alone; the
// front end's embedding lives in frontend/, the icons in build/.
func TestRootHoldsMainOnly(t *testing.T) {
	p := listPackages(t, module)[0]
	if !slices.Equal(p.GoFiles, []string{"main.go"}) || len(p.TestGoFiles)+len(p.XTestGoFiles) != 0 {
		t.Fatalf("root package files %q (tests %q %q), want main.go only", p.GoFiles, p.TestGoFiles, p.XTestGoFiles)
	}
}
