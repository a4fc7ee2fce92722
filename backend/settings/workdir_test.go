package settings

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// testAbs is an absolute path of this OS made of parts: /parts on Linux
// and macOS, C:\parts (the temporary directory's drive) on Windows.
func testAbs(parts ...string) string {
	root := filepath.VolumeName(os.TempDir()) + string(filepath.Separator)
	return filepath.Join(append([]string{root}, parts...)...)
}

// testAbsJSON is testAbs as a JSON string.
func testAbsJSON(parts ...string) string {
	b, _ := json.Marshal(testAbs(parts...))
	return string(b)
}

func TestResolveWorkDir(t *testing.T) {
	home := func() (string, error) { return testAbs("home", "u"), nil }
	noHome := func() (string, error) { return "", errors.New("no home") }
	cases := []struct {
		in, want string
		home     func() (string, error)
	}{
		{"", "", home},
		{"  ", "", home},
		{testAbs("src", "app") + string(filepath.Separator), testAbs("src", "app"), home},
		{testAbs("src") + string(filepath.Separator) + filepath.Join(".", "app", "..", "app"), testAbs("src", "app"), home},
		{"~", testAbs("home", "u"), home},
		{"~/code/app", testAbs("home", "u", "code", "app"), home},
		{"~/code", "", noHome},
	}
	for _, c := range cases {
		if got := ResolveWorkDir(c.in, c.home); got != c.want {
			t.Errorf("ResolveWorkDir(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
