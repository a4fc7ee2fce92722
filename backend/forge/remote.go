package forge

import (
	"net"
	"net/url"
	"strconv"
	"strings"
)

// Host is a forge host: github.com and gitlab.com are known; others (a
// GitHub Enterprise Server, a self-managed GitLab) come from settings
// (forge.hosts).
type Host struct {
	// Name is the host as remote URLs name it, with the port when an HTTP
	// remote has one ("git.example.com", "127.0.0.1:8080").
	Name string `json:"host"`
	Kind Kind   `json:"kind"`
	// API is the API's base URL; "" means the forge's usual one:
	// https://<host>/api/v3/ (GitHub Enterprise), https://<host>/api/v4/
	// (GitLab), https://api.github.com/ for github.com.
	API string `json:"api,omitempty"`
	// TokenEnv is the environment variable holding the host's token
	// ("" = GITHUB_TOKEN / GITLAB_TOKEN for github.com / gitlab.com,
	// GH_ENTERPRISE_TOKEN / GITLAB_TOKEN for other hosts).
	TokenEnv string `json:"tokenEnv,omitempty"`
}

// KnownHosts are the public forges, always known.
var KnownHosts = []Host{
	{Name: "github.com", Kind: GitHub, API: "https://api.github.com/"},
	{Name: "gitlab.com", Kind: GitLab, API: "https://gitlab.com/api/v4/"},
}

// Project is a repository on a forge.
type Project struct {
	Kind Kind `json:"kind"`
	// Host is the forge host (Host.Name); Path the project's path on it
	// ("owner/repo"; GitLab groups nest: "group/sub/repo").
	Host string `json:"host"`
	Path string `json:"path"`
	// API is the API's base URL (ends with "/"); Web the project's page.
	API string `json:"api"`
	Web string `json:"web"`
	// TokenEnv is the environment variable of the host's token.
	TokenEnv string `json:"token_env"`
}

// Owner returns the path up to its last element ("group/sub").
func (p Project) Owner() string {
	i := strings.LastIndexByte(p.Path, '/')
	if i < 0 {
		return ""
	}
	return p.Path[:i]
}

// Name returns the last element of the path.
func (p Project) Name() string { return p.Path[strings.LastIndexByte(p.Path, '/')+1:] }

// ParseRemote reads the forge project of a git remote URL: https://,
// http://, ssh:// and git@host:path forms, with or without ".git". A host
// that is neither github.com, gitlab.com nor in hosts, a local path or a
// file:// URL gives an *UnknownForgeError; the URL's credentials are never
// kept.
func ParseRemote(raw string, hosts []Host) (Project, error) {
	scheme, host, hostname, path, ok := splitRemote(raw)
	if !ok {
		return Project{}, &UnknownForgeError{URL: RedactURL(raw)}
	}
	h, ok := findHost(host, hostname, scheme, hosts)
	if !ok {
		return Project{}, &UnknownForgeError{URL: RedactURL(raw), Host: host}
	}
	path = strings.TrimSuffix(strings.Trim(path, "/"), ".git")
	if strings.Count(path, "/") < 1 || strings.Contains(path, "//") || (h.Kind == GitHub && strings.Count(path, "/") != 1) {
		return Project{}, &UnknownForgeError{URL: RedactURL(raw), Host: host, Path: true}
	}
	return project(h, scheme, path), nil
}

// ParseIssueURL reads an issue's web address: https://github.com/o/r/issues/12
// or https://gitlab.com/group/repo/-/issues/12 (also -/work_items/12).
// Errors: *UnknownForgeError for a host no forge is known at, *BadIssueURLError for an address that names no issue.
func ParseIssueURL(raw string, hosts []Host) (Project, int, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return Project{}, 0, &BadIssueURLError{URL: RedactURL(raw)}
	}
	h, ok := findHost(u.Host, u.Hostname(), u.Scheme, hosts)
	if !ok {
		return Project{}, 0, &UnknownForgeError{URL: RedactURL(raw), Host: u.Host}
	}
	path := strings.Trim(u.Path, "/")
	var proj, num string
	switch h.Kind {
	case GitHub:
		parts := strings.Split(path, "/")
		if len(parts) == 4 && (parts[2] == "issues" || parts[2] == "pull") {
			proj, num = parts[0]+"/"+parts[1], parts[3]
		}
	case GitLab:
		for _, mark := range []string{"/-/issues/", "/-/work_items/"} {
			if p, n, ok := strings.Cut(path, mark); ok && p != "" {
				proj, num = p, n
			}
		}
	}
	n, err := strconv.Atoi(num)
	if proj == "" || err != nil || n < 1 {
		return Project{}, 0, &BadIssueURLError{URL: RedactURL(raw), Kind: h.Kind}
	}
	return project(h, u.Scheme, proj), n, nil
}

func project(h Host, scheme, path string) Project {
	web := "https://" + h.Name + "/" + path
	if scheme == "http" {
		web = "http://" + h.Name + "/" + path
	}
	return Project{Kind: h.Kind, Host: h.Name, Path: path, API: apiBase(h, scheme), Web: web, TokenEnv: tokenEnv(h)}
}

// tokenEnv is the environment variable of h's token.
func tokenEnv(h Host) string {
	switch {
	case h.TokenEnv != "":
		return h.TokenEnv
	case h.Kind == GitHub && strings.EqualFold(h.Name, "github.com"):
		return "GITHUB_TOKEN"
	case h.Kind == GitHub:
		return "GH_ENTERPRISE_TOKEN"
	}
	return "GITLAB_TOKEN"
}

// apiBase is h's API URL, ending in "/".
func apiBase(h Host, scheme string) string {
	api := h.API
	if api == "" {
		if scheme != "http" {
			scheme = "https"
		}
		switch h.Kind {
		case GitHub:
			api = scheme + "://" + h.Name + "/api/v3/"
		case GitLab:
			api = scheme + "://" + h.Name + "/api/v4/"
		}
	}
	if !strings.HasSuffix(api, "/") {
		api += "/"
	}
	return api
}

// findHost matches a remote's host: an HTTP remote by host and port, an
// SSH one by host name alone (its port is SSH's).
func findHost(host, hostname, scheme string, hosts []Host) (Host, bool) {
	all := append(append([]Host(nil), hosts...), KnownHosts...)
	for _, h := range all {
		name := strings.ToLower(h.Name)
		if name == strings.ToLower(host) {
			return h, true
		}
		if scheme != "http" && scheme != "https" {
			if hn, _, err := net.SplitHostPort(name); err == nil && hn == strings.ToLower(hostname) || name == strings.ToLower(hostname) {
				return h, true
			}
		}
	}
	return Host{}, false
}

// splitRemote splits a remote URL into its scheme ("ssh" for the scp-like
// form), host (with port), host name and path.
func splitRemote(raw string) (scheme, host, hostname, path string, ok bool) {
	raw = strings.TrimSpace(raw)
	if raw == "" || strings.ContainsAny(raw, " \t\n\r") {
		return "", "", "", "", false
	}
	if strings.Contains(raw, "://") {
		u, err := url.Parse(raw)
		if err != nil || u.Host == "" {
			return "", "", "", "", false
		}
		switch u.Scheme {
		case "https", "http", "ssh", "git", "git+ssh", "ssh+git":
		default:
			return "", "", "", "", false
		}
		return u.Scheme, u.Host, u.Hostname(), u.Path, true
	}
	// [user@]host:path, where the host holds no slash (else a local path).
	colon := strings.IndexByte(raw, ':')
	slash := strings.IndexByte(raw, '/')
	if colon <= 0 || (slash >= 0 && slash < colon) {
		return "", "", "", "", false
	}
	host = raw[:colon]
	if at := strings.LastIndexByte(host, '@'); at >= 0 {
		host = host[at+1:]
	}
	if host == "" {
		return "", "", "", "", false
	}
	return "ssh", host, host, raw[colon+1:], true
}

// RedactURL returns a remote URL without the password or token it may
// hold (https://user:TOKEN@host/... → https://user@host/...; a lone user
// name that is a token is dropped).
func RedactURL(raw string) string {
	if !strings.Contains(raw, "://") {
		return raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		if i, j := strings.Index(raw, "://"), strings.LastIndexByte(raw, '@'); i >= 0 && j > i {
			return raw[:i+3] + raw[j+1:]
		}
		return raw
	}
	if u.User == nil {
		return raw
	}
	name := u.User.Username()
	_, hasPW := u.User.Password()
	switch {
	case len(name) >= 20: // a token given as the user name
		u.User = nil
	case hasPW:
		u.User = url.User(name)
	}
	return u.String()
}
