package settings

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/boof-runner/boof-runner/backend/names"
)

// Defaults and limits of settings.forge.
const (
	// DefaultForgeBranch names the branch a task is pushed as: {slug} is
	// the task's title in lower-case words, {id} its id.
	DefaultForgeBranch    = "boof-runner/{slug}-{id}"
	DefaultForgePollSec   = 300
	DefaultForgeTimeout   = 60
	minForgePollSec       = 60
	maxForgePollSec       = 24 * 3600
	minForgeTimeout       = 5
	maxForgeTimeout       = 600
	maxForgeHosts         = 50
	maxForgeLabels        = 50
	maxForgeBranchPattern = 200
)

// ForgeHost is a self-hosted forge (settings.forge.hosts[]): a GitHub
// Enterprise Server or a self-managed GitLab, matched by the host of a
// remote's URL.
type ForgeHost struct {
	// Host is the host as remote URLs name it (with the port of an HTTP
	// remote that has one).
	Host string `json:"host"`
	// Kind is "github" or "gitlab".
	Kind string `json:"kind"`
	// API is the API's base URL ("" = https://<host>/api/v3/ or /api/v4/).
	API string `json:"api,omitempty"`
	// TokenEnv names the environment variable of the host's token.
	TokenEnv string `json:"tokenEnv,omitempty"`
}

// Forge holds settings.forge: pushing task branches and their pull
// requests.
type Forge struct {
	Hosts []ForgeHost `json:"hosts"`
	// Remote is the remote pushed to ("" = the target branch's upstream
	// remote, else the only remote, else origin).
	Remote string `json:"remote,omitempty"`
	// Branch names the pushed branch ({slug}, {id}).
	Branch    string   `json:"branch"`
	Draft     bool     `json:"draft"`
	Labels    []string `json:"labels"`
	Reviewers []string `json:"reviewers"`
	// PollSeconds is how often an open pull request is read again.
	PollSeconds int `json:"pollSeconds"`
	// TimeoutSeconds bounds a push and each API call.
	TimeoutSeconds int `json:"timeoutSeconds"`
}

func defaultForge() Forge {
	return Forge{Hosts: []ForgeHost{}, Branch: DefaultForgeBranch, Labels: []string{}, Reviewers: []string{},
		PollSeconds: DefaultForgePollSec, TimeoutSeconds: DefaultForgeTimeout}
}

// BranchName returns the pushed branch of a task from the pattern.
func (f Forge) BranchName(id, slug string) string {
	pat := f.Branch
	if pat == "" {
		pat = DefaultForgeBranch
	}
	name := strings.ReplaceAll(strings.ReplaceAll(pat, "{id}", id), "{slug}", slug)
	name = strings.ReplaceAll(name, "/-", "/")
	return strings.ReplaceAll(name, "--", "-")
}

// problems reports every bad value of settings.forge through bad.
func (f Forge) problems(bad func(key, format string, args ...any)) {
	if len(f.Hosts) > maxForgeHosts {
		bad("forge.hosts", "must list at most %d hosts (got %d)", maxForgeHosts, len(f.Hosts))
	}
	for i, h := range f.Hosts {
		key := fmt.Sprintf("forge.hosts[%d]", i)
		if !names.Host(h.Host) {
			bad(key+".host", "must be a host name, with a port if the remote URLs have one (got %q)", h.Host)
		}
		if h.Kind != "github" && h.Kind != "gitlab" {
			bad(key+".kind", "must be \"github\" or \"gitlab\" (got %q)", h.Kind)
		}
		if h.API != "" {
			if u, err := url.Parse(h.API); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil {
				bad(key+".api", "must be an http(s) URL without credentials (got %q)", h.API)
			}
		}
		if h.TokenEnv != "" && !envName.MatchString(h.TokenEnv) {
			bad(key+".tokenEnv", "must be an environment variable name (got %q)", h.TokenEnv)
		}
	}
	if strings.ContainsAny(f.Remote, " \t\n\r\x00") || strings.HasPrefix(f.Remote, "-") {
		bad("forge.remote", "must be a remote's name (got %q)", f.Remote)
	}
	if f.Branch != "" {
		sample := f.BranchName("01ABCDEFGHJKMNPQRSTVWXYZ00", "a-title")
		if !strings.Contains(f.Branch, "{id}") || len(f.Branch) > maxForgeBranchPattern || !names.Branch(sample) {
			bad("forge.branch", "must be a branch name holding {id} (and maybe {slug}) (got %q)", f.Branch)
		}
	}
	if len(f.Labels) > maxForgeLabels || len(f.Reviewers) > maxForgeLabels {
		bad("forge.labels", "must list at most %d labels and reviewers", maxForgeLabels)
	}
	for _, l := range f.Labels {
		if !names.Label(l) {
			bad("forge.labels", "must be one-line names without commas, at most 255 bytes (got %q)", l)
			break
		}
	}
	for _, u := range f.Reviewers {
		if !names.User(u) {
			bad("forge.reviewers", "must be user names (letters, digits, '-', '_', '.') (got %q)", u)
			break
		}
	}
	if f.PollSeconds < minForgePollSec || f.PollSeconds > maxForgePollSec {
		bad("forge.pollSeconds", "must be between %d and %d (got %d)", minForgePollSec, maxForgePollSec, f.PollSeconds)
	}
	if f.TimeoutSeconds < minForgeTimeout || f.TimeoutSeconds > maxForgeTimeout {
		bad("forge.timeoutSeconds", "must be between %d and %d (got %d)", minForgeTimeout, maxForgeTimeout, f.TimeoutSeconds)
	}
}
