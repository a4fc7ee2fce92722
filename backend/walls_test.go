// Package backend_test enforces the walls of DESIGN.md: backend/ never
// imports app/ or UI code, backend/task does no I/O, only the desktop shell
// (app/shell, one file of it) calls Wails, and the root holds main.go only.
package backend_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os/exec"
	"path/filepath"
	"regexp"
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
	return goList[pkg](t, "ImportPath,Dir,GoFiles,TestGoFiles,XTestGoFiles,Imports,Deps", pattern)
}

// goList runs `go list -e -tags desktop -json=fields pattern` and decodes
// its packages: the desktop build, the one that holds the window (the
// headless boof-runner is the same packages less the shell).
func goList[T any](t *testing.T, fields, pattern string) []T {
	t.Helper()
	out, err := exec.Command("go", "list", "-e", "-tags", "desktop", "-json="+fields, pattern).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []T
	for dec := json.NewDecoder(bytes.NewReader(out)); ; {
		var p T
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
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
		module + "/app", wailsPath, "fyne.io/", "github.com/getlantern/systray",
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

// The wall around the agent CLIs: only the adapters under backend/agent/
// know a CLI by name. Everything else reaches them through agent.Tool, the
// registry and the facts each agent.Adapter declares; backend/host is the
// one composition root that imports the adapters and lists them. Two
// exceptions, both deliberate: the root package (main) imports the mock
// adapter to run its agent program (mock.Main, mock.AgentCommand), and
// test files may name CLIs freely (settings and store tests use tool names
// as data; the real-CLI suites run them).
const agentDir = module + "/backend/agent"

// cliAdapters are the adapter packages of real CLIs.
var cliAdapters = []string{agentDir + "/claude", agentDir + "/codex", agentDir + "/opencode", agentDir + "/qwen"}

// cliName matches a string that names an agent CLI.
var cliName = regexp.MustCompile(`(?i)\b(claude|codex|opencode|qwen)\b`)

// mayImportAdapter reports whether pkg may import adapter.
func mayImportAdapter(pkg, adapter string) bool {
	switch {
	case pkg == module+"/backend/host", strings.HasPrefix(pkg, agentDir+"/"):
		return true
	case pkg == module:
		return adapter == agentDir+"/mock"
	}
	return false
}

type srcPkg struct {
	ImportPath     string
	Dir            string
	Imports        []string
	GoFiles        []string
	CgoFiles       []string
	IgnoredGoFiles []string
}

// listSources lists every package of the module with its non-test files,
// those of every build tag included.
func listSources(t *testing.T) []srcPkg {
	pkgs := goList[srcPkg](t, "ImportPath,Dir,Imports,GoFiles,CgoFiles,IgnoredGoFiles", module+"/...")
	if len(pkgs) < 10 {
		t.Fatalf("go list found %d packages", len(pkgs))
	}
	return pkgs
}

// cliLiterals returns the string literals of a package's non-test files
// (import paths left out) that name a CLI, as "file:line: text".
func cliLiterals(t *testing.T, p srcPkg) []string {
	t.Helper()
	var found []string
	fset := token.NewFileSet()
	for _, name := range slices.Concat(p.GoFiles, p.CgoFiles, p.IgnoredGoFiles) {
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
				continue
			}
			ast.Inspect(d, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				if s, err := strconv.Unquote(lit.Value); err == nil && cliName.MatchString(s) {
					found = append(found, fmt.Sprintf("%s:%d: %s", name, fset.Position(lit.Pos()).Line, lit.Value))
				}
				return true
			})
		}
	}
	return found
}

func TestOnlyTheAgentAdaptersNameACLI(t *testing.T) {
	for _, p := range listSources(t) {
		for _, imp := range p.Imports {
			if strings.HasPrefix(imp, agentDir+"/") && imp != agentDir+"/fakemodel" && !mayImportAdapter(p.ImportPath, imp) {
				t.Errorf("%s imports the adapter %s: only backend/host wires the adapters", p.ImportPath, imp)
			}
		}
		if p.ImportPath == agentDir || strings.HasPrefix(p.ImportPath, agentDir+"/") || p.ImportPath == module+"/scripts/benchtable" {
			continue // the benchmark table names the real-CLI benchmarks' rows
		}
		for _, l := range cliLiterals(t, p) {
			t.Errorf("%s names a CLI in %s: CLI names belong to their adapter under backend/agent/", p.ImportPath, l)
		}
	}
}

// TestCLIWallCatchesNames proves both checks can fail: the claude adapter
// names its CLI, host imports it, and app may not.
func TestCLIWallCatchesNames(t *testing.T) {
	var sawAdapterName, sawHostImport bool
	for _, p := range listSources(t) {
		switch p.ImportPath {
		case cliAdapters[0]:
			sawAdapterName = len(cliLiterals(t, p)) > 0
		case module + "/backend/host":
			sawHostImport = slices.Contains(p.Imports, cliAdapters[0]) && slices.Contains(p.Imports, cliAdapters[1])
		}
	}
	if !sawAdapterName || !sawHostImport {
		t.Fatalf("the CLI wall check is blind: adapter names seen %v, host imports seen %v", sawAdapterName, sawHostImport)
	}
	for _, a := range append(cliAdapters, agentDir+"/mock") {
		if mayImportAdapter(module+"/app", a) || mayImportAdapter(module+"/backend/runner", a) {
			t.Fatalf("%s would be allowed outside backend/host", a)
		}
	}
}

// Where Wails may be named: the shell package, and in it one file. Its
// module path is spelt in two parts, so that no file under backend/ holds
// it whole: a textual check of the wall (grep for the path) then finds no
// false hit in this test.
const (
	shellPkg   = module + "/app/shell"
	wailsFile  = "wails.go"
	wailsPath  = "github.com/" + "wailsapp/"
	wailsRTime = wailsPath + "wails/v2/pkg/runtime"
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

// kubeImport reports whether an import path is the Kubernetes client or
// anything of the Kubernetes project (client-go, apimachinery, klog, …).
func kubeImport(path string) bool {
	return strings.HasPrefix(path, "k8s.io/") || strings.HasPrefix(path, "sigs.k8s.io/")
}

// The wall around the cluster client (docs/cluster.md): client-go and the
// rest of k8s.io never link into boof-runner, the window's binary (its
// start-up and size, the performance rows P6); the cluster is reached by
// cmd/boof-runner-kube alone. The second half proves the check can fail:
// boof-runner-kube does link client-go.
func TestDesktopNeverLinksTheClusterClient(t *testing.T) {
	for _, p := range listPackages(t, module) {
		for _, d := range p.Deps {
			if kubeImport(d) {
				t.Errorf("%s depends on %s: the desktop binary must not link the Kubernetes client (it lives in cmd/boof-runner-kube)", p.ImportPath, d)
				break // one line per package is enough
			}
		}
	}
	found := false
	for _, p := range listPackages(t, module+"/cmd/boof-runner-kube") {
		found = found || slices.Contains(p.Deps, "k8s.io/client-go/kubernetes")
	}
	if !found {
		t.Fatal("the check did not see k8s.io/client-go/kubernetes in cmd/boof-runner-kube's deps")
	}
}
