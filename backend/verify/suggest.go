package verify

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/boof-runner/boof-runner/backend/userfile"
)

// Suggestion is a verify command the repository's files point to. It is
// only shown (Settings screen, doctor); nothing runs it until the user
// accepts it.
type Suggestion struct {
	Command string `json:"command"`
	// Because names the file that suggests it ("go.mod").
	Because string `json:"because"`
}

// npmDefaultTest is the test script `npm init` writes: it fails on purpose.
const npmDefaultTest = `echo "Error: no test specified" && exit 1`

var makeTestRe = regexp.MustCompile(`^test\s*::?(?:[^=]|$)`)

// maxProbe is the most bytes read of a file that is probed.
const maxProbe = 1 << 20

// Suggest returns the verify commands dir's files point to, in this
// order: go.mod → `go test ./...`, package.json with a real test script →
// `npm test`, a Makefile with a test target → `make test`, Cargo.toml →
// `cargo test`, pyproject.toml → `pytest`. It reads only those files (at
// most 1 MiB each) and returns none for a folder it cannot read.
func Suggest(dir string) []Suggestion {
	var out []Suggestion
	if isFile(filepath.Join(dir, "go.mod")) {
		out = append(out, Suggestion{Command: "go test ./...", Because: "go.mod"})
	}
	if b, ok := readSmall(filepath.Join(dir, "package.json")); ok {
		var pkg struct {
			Scripts map[string]any `json:"scripts"`
		}
		if json.Unmarshal(b, &pkg) == nil {
			if s, ok := pkg.Scripts["test"].(string); ok && strings.TrimSpace(s) != "" && strings.TrimSpace(s) != npmDefaultTest {
				out = append(out, Suggestion{Command: "npm test", Because: "package.json"})
			}
		}
	}
	for _, name := range []string{"GNUmakefile", "makefile", "Makefile"} {
		if hasMakeTest(filepath.Join(dir, name)) {
			out = append(out, Suggestion{Command: "make test", Because: name})
			break
		}
	}
	if isFile(filepath.Join(dir, "Cargo.toml")) {
		out = append(out, Suggestion{Command: "cargo test", Because: "Cargo.toml"})
	}
	if isFile(filepath.Join(dir, "pyproject.toml")) {
		out = append(out, Suggestion{Command: "pytest", Because: "pyproject.toml"})
	}
	return out
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

func readSmall(p string) ([]byte, bool) {
	if !isFile(p) {
		return nil, false
	}
	f, err := userfile.OpenKept(p)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	b := make([]byte, maxProbe)
	n, _ := f.Read(b)
	return b[:n], n > 0
}

// hasMakeTest reports whether a makefile has a rule whose target is test.
func hasMakeTest(p string) bool {
	b, ok := readSmall(p)
	if !ok {
		return false
	}
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	sc.Buffer(make([]byte, 64<<10), maxProbe)
	for sc.Scan() {
		line := sc.Text()
		if makeTestRe.MatchString(line) {
			return true
		}
		if strings.HasPrefix(line, ".PHONY") || strings.Contains(line, ":") {
			for _, t := range strings.Fields(strings.SplitN(line, ":", 2)[0]) {
				if t == "test" && !strings.Contains(line, ":=") && !strings.HasPrefix(line, ".PHONY") {
					return true
				}
			}
		}
	}
	return false
}
