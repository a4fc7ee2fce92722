// Package backend_test enforces the two walls of DESIGN.md.
package backend_test

import (
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
)

type pkg struct {
	ImportPath string
	Imports    []string
	Deps       []string
}

func listPackages(t *testing.T, pattern string) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-json=ImportPath,Imports,Deps", pattern)
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
