package usererr_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// edges are the folders whose errors reach the user as they are: the
// bound services of the window and the headless commands. Both show
// Describe's sentence of what they return, so a sentence built there is a
// second vocabulary (and a fake backend or a script drifts from it).
var edges = []string{"../../app", "../cli"}

// repoRoot is the repository's top, which findings are named from.
var repoRoot, _ = filepath.Abs("../..")

// wrapContext is the one fmt.Errorf an edge may make: lowercase context
// before the error it wraps ("write export: %w"), which Describe looks
// through.
var wrapContext = regexp.MustCompile(`^[a-z][a-z0-9 _-]*( %[sdq])*: %w$`)

// notShown are the CLI's error types whose text never reaches the user as
// a message: usage mistakes are printed with the command's flags, and an
// exitCode only carries the process's exit status.
var notShown = map[string]bool{"usageError": true, "exitCode": true}

// TestNoSentenceBuiltAtTheEdges keeps every user-facing sentence in this
// package. In the non-test Go files of app/ and backend/cli/ it refuses,
// inside function bodies:
//
//   - errors.New(...): an error whose text is the message;
//   - fmt.Errorf(...) unless its format is a literal of lowercase context
//     ending in ": %w" (wrapContext);
//   - a composite literal of task.InvalidError (its Reason is shown as it
//     is) or of usererr.Error (a message made by hand);
//
// and anywhere, an Error() method on a type of theirs (an error type whose
// text would be the message) other than the CLI's usageError, which holds
// the command-line syntax mistakes only the CLI has (exit 2), and its
// exitCode, which carries an exit status (a runner a signal stopped) and
// is never shown. A problem of
// an edge's own is a *usererr.Edge (or a typed error of the backend
// package it concerns), worded once in this package.
func TestNoSentenceBuiltAtTheEdges(t *testing.T) {
	var found []string
	for _, dir := range edges {
		found = append(found, sentencesIn(t, dir)...)
	}
	if len(found) > 0 {
		t.Fatalf("user-facing sentences built outside backend/usererr (make them typed errors described there):\n  %s",
			strings.Join(found, "\n  "))
	}
}

// sentencesIn lists what TestNoSentenceBuiltAtTheEdges refuses in the Go
// files of dir (not its subfolders: app/shell is the desktop shell, whose
// errors are logged, and app/internal holds tools).
func sentencesIn(t *testing.T, dir string) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no Go files in %s: %v", dir, err)
	}
	var found []string
	fset := token.NewFileSet()
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, p, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		at := func(n ast.Node, what string) {
			pos := fset.Position(n.Pos())
			name := pos.Filename
			if abs, err := filepath.Abs(name); err == nil {
				if rel, err := filepath.Rel(repoRoot, abs); err == nil && !strings.HasPrefix(rel, "..") {
					name = rel
				}
			}
			found = append(found, fmt.Sprintf("%s:%d: %s", filepath.ToSlash(name), pos.Line, what))
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			if fn.Recv != nil && fn.Name.Name == "Error" && !notShown[receiverName(fn)] {
				at(fn, "an Error() method on "+receiverName(fn))
			}
			if fn.Body != nil {
				ast.Inspect(fn.Body, func(n ast.Node) bool {
					if what := sentenceAt(n); what != "" {
						at(n, what)
					}
					return true
				})
			}
		}
	}
	return found
}

// sentenceAt says what n builds when it is a refused construction, "" else.
func sentenceAt(n ast.Node) string {
	switch x := n.(type) {
	case *ast.CallExpr:
		switch selector(x.Fun) {
		case "errors.New":
			return "errors.New(" + literal(x) + ")"
		case "fmt.Errorf":
			if lit := literal(x); !wrapContext.MatchString(lit) {
				return "fmt.Errorf(" + strconv.Quote(lit) + ", ...)"
			}
		}
	case *ast.CompositeLit:
		if s := selector(x.Type); s == "task.InvalidError" || s == "usererr.Error" {
			return s + "{...}"
		}
	}
	return ""
}

// selector is "pkg.Name" for a selector expression, "" else.
func selector(e ast.Expr) string {
	s, ok := e.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	id, ok := s.X.(*ast.Ident)
	if !ok {
		return ""
	}
	return id.Name + "." + s.Sel.Name
}

// literal is the call's first argument when it is a string literal, else
// a marker that never matches wrapContext.
func literal(c *ast.CallExpr) string {
	if len(c.Args) == 0 {
		return "<none>"
	}
	lit, ok := c.Args[0].(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "<not a literal>"
	}
	s, err := strconv.Unquote(lit.Value)
	if err != nil {
		return lit.Value
	}
	return s
}

func receiverName(fn *ast.FuncDecl) string {
	if len(fn.Recv.List) == 0 {
		return ""
	}
	e := fn.Recv.List[0].Type
	if st, ok := e.(*ast.StarExpr); ok {
		e = st.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// TestTheSentenceCheckFindsEachConstruction runs the check's matcher over
// a file holding one of each refused construction and one of each allowed
// one, so the check cannot pass by matching nothing.
func TestTheSentenceCheckFindsEachConstruction(t *testing.T) {
	dir := t.TempDir()
	src := `package probe

import ("errors"; "fmt")

type myErr struct{}

func (myErr) Error() string { return "Something broke." }

type usageError struct{}

func (usageError) Error() string { return "usage" }

var ErrSentinel = errors.New("a condition callers branch on")

func f(err error, id string) error {
	_ = errors.New("The command needs a name.")
	_ = fmt.Errorf("a command named %q already exists", id)
	_ = fmt.Errorf("settings saved, but %w", err)
	_ = &task.InvalidError{Reason: "bad"}
	_ = &usererr.Error{Message: "Hand made."}
	_ = fmt.Errorf("write export: %w", err)
	_ = fmt.Errorf("queue %s: %w", id, err)
	return nil
}
`
	if err := os.WriteFile(filepath.Join(dir, "probe.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	got := sentencesIn(t, dir)
	want := []string{"an Error() method on myErr", `errors.New(The command needs a name.)`,
		`fmt.Errorf("a command named %q already exists", ...)`, `fmt.Errorf("settings saved, but %w", ...)`,
		"task.InvalidError{...}", "usererr.Error{...}"}
	if len(got) != len(want) {
		t.Fatalf("found %d, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i, w := range want {
		if !strings.HasSuffix(got[i], ": "+w) {
			t.Errorf("finding %d = %q, want …%q", i, got[i], w)
		}
	}
}
