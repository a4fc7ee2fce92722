package app

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestEveryEventConstantIsInEvents keeps the generated TypeScript contract
// complete: each Event* string constant of the package is listed in Events.
func TestEveryEventConstantIsInEvents(t *testing.T) {
	listed := map[string]bool{}
	for _, e := range Events {
		listed[e.Name] = true
	}
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	found := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(af, func(n ast.Node) bool {
			vs, ok := n.(*ast.ValueSpec)
			if !ok {
				return true
			}
			for i, id := range vs.Names {
				if !strings.HasPrefix(id.Name, "Event") || i >= len(vs.Values) {
					continue
				}
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					continue
				}
				v, _ := strconv.Unquote(lit.Value)
				found++
				if !listed[v] {
					t.Errorf("%s (%q) in %s is not in app.Events", id.Name, v, f)
				}
			}
			return true
		})
	}
	if found < len(Events) {
		t.Fatalf("found %d event constants, Events lists %d", found, len(Events))
	}
}
