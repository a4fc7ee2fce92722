package settings

import (
	"errors"
	"testing"
)

func TestResolveWorkDir(t *testing.T) {
	home := func() (string, error) { return "/home/u", nil }
	noHome := func() (string, error) { return "", errors.New("no home") }
	cases := []struct {
		in, want string
		home     func() (string, error)
	}{
		{"", "", home},
		{"  ", "", home},
		{"/src/app/", "/src/app", home},
		{"/src/./app/../app", "/src/app", home},
		{"~", "/home/u", home},
		{"~/code/app", "/home/u/code/app", home},
		{"~/code", "", noHome},
	}
	for _, c := range cases {
		if got := ResolveWorkDir(c.in, c.home); got != c.want {
			t.Errorf("ResolveWorkDir(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
