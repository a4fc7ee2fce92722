package forge_test

import (
	"errors"
	"testing"

	"github.com/boof-runner/boof-runner/backend/forge"
)

func TestParseRemote(t *testing.T) {
	hosts := []forge.Host{
		{Name: "git.corp.example", Kind: forge.GitLab},
		{Name: "ghe.example", Kind: forge.GitHub, TokenEnv: "CORP_GH"},
		{Name: "127.0.0.1:8080", Kind: forge.GitHub, API: "http://127.0.0.1:8080/api/v3"},
	}
	cases := []struct {
		url                       string
		kind                      forge.Kind
		host, path, api, web, env string
	}{
		{"https://github.com/o/r.git", forge.GitHub, "github.com", "o/r", "https://api.github.com/", "https://github.com/o/r", "GITHUB_TOKEN"},
		{"git@github.com:o/r.git", forge.GitHub, "github.com", "o/r", "https://api.github.com/", "https://github.com/o/r", "GITHUB_TOKEN"},
		{"ssh://git@github.com:22/o/r", forge.GitHub, "github.com", "o/r", "https://api.github.com/", "https://github.com/o/r", "GITHUB_TOKEN"},
		{"https://x-access-token:ghs_abcdefghijklmnopqrstuvwxyz0123456789@github.com/o/r", forge.GitHub, "github.com", "o/r", "https://api.github.com/", "https://github.com/o/r", "GITHUB_TOKEN"},
		{"https://gitlab.com/group/sub/proj.git", forge.GitLab, "gitlab.com", "group/sub/proj", "https://gitlab.com/api/v4/", "https://gitlab.com/group/sub/proj", "GITLAB_TOKEN"},
		{"git@git.corp.example:team/app.git", forge.GitLab, "git.corp.example", "team/app", "https://git.corp.example/api/v4/", "https://git.corp.example/team/app", "GITLAB_TOKEN"},
		{"https://ghe.example/o/r", forge.GitHub, "ghe.example", "o/r", "https://ghe.example/api/v3/", "https://ghe.example/o/r", "CORP_GH"},
		{"http://127.0.0.1:8080/o/r.git", forge.GitHub, "127.0.0.1:8080", "o/r", "http://127.0.0.1:8080/api/v3/", "http://127.0.0.1:8080/o/r", "GH_ENTERPRISE_TOKEN"},
	}
	for _, c := range cases {
		p, err := forge.ParseRemote(c.url, hosts)
		if err != nil || p.Kind != c.kind || p.Host != c.host || p.Path != c.path || p.API != c.api || p.Web != c.web || p.TokenEnv != c.env {
			t.Errorf("ParseRemote(%q) = %+v, %v", c.url, p, err)
		}
	}
	for _, bad := range []string{"/srv/git/r.git", "file:///srv/git/r.git", "https://bitbucket.org/o/r", "https://github.com/o", "https://github.com/o/r/extra", "", "git@:x"} {
		var ue *forge.UnknownForgeError
		if _, err := forge.ParseRemote(bad, hosts); !errors.As(err, &ue) {
			t.Errorf("ParseRemote(%q) = %v, want an *UnknownForgeError", bad, err)
		}
	}
	_, err := forge.ParseRemote("https://user:hunter2hunter2@bitbucket.org/o/r", nil)
	if err == nil || err.Error() != "https://user@bitbucket.org/o/r is not on a known forge" {
		t.Errorf("credentials in the error: %v", err)
	}
}

func TestParseIssueURL(t *testing.T) {
	for raw, want := range map[string]struct {
		path string
		n    int
	}{
		"https://github.com/o/r/issues/12":              {"o/r", 12},
		"https://gitlab.com/group/sub/proj/-/issues/7":  {"group/sub/proj", 7},
		"https://gitlab.com/group/proj/-/work_items/3":  {"group/proj", 3},
		" https://github.com/o/r/issues/5?foo=bar#top ": {"o/r", 5},
	} {
		p, n, err := forge.ParseIssueURL(raw, nil)
		if err != nil || p.Path != want.path || n != want.n {
			t.Errorf("ParseIssueURL(%q) = %+v %d %v", raw, p, n, err)
		}
	}
	var bi *forge.BadIssueURLError
	for _, bad := range []string{"https://github.com/o/r", "https://github.com/o/r/issues/x", "https://gitlab.com/g/p/issues/1", "github.com/o/r/issues/1"} {
		if _, _, err := forge.ParseIssueURL(bad, nil); !errors.As(err, &bi) {
			t.Errorf("ParseIssueURL(%q) = %v, want a *BadIssueURLError", bad, err)
		}
	}
	var uf *forge.UnknownForgeError
	if _, _, err := forge.ParseIssueURL("https://example.org/o/r/issues/1", nil); !errors.As(err, &uf) {
		t.Errorf("unknown host: %v", err)
	}
}

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://oauth2:glpat-aaaaaaaaaaaaaaaaaaaa@gitlab.com/g/p.git":  "https://oauth2@gitlab.com/g/p.git",
		"https://ghp_abcdefghijklmnopqrstuvwxyz0123@github.com/o/r.git": "https://github.com/o/r.git",
		"https://github.com/o/r.git":                                    "https://github.com/o/r.git",
		"git@github.com:o/r.git":                                        "git@github.com:o/r.git",
	} {
		if got := forge.RedactURL(in); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
}
