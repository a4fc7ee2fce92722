// Package forgetest serves, on loopback, what the forge code talks to in
// tests: bare repositories over git's smart HTTP (the real `git
// http-backend` through net/http/cgi, with optional basic auth and a
// read-only mode that answers pushes with 403), and fake GitHub and
// GitLab APIs that implement the endpoints Boof Runner uses, reading the
// pushed branches from those same repositories. Tests script pull request
// states, checks, reviews and failures (403/429 with reset headers, 5xx,
// HTML pages) on it. It is imported by tests only.
package forgetest

import (
	"encoding/base64"
	"io"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/boof-runner/boof-runner/backend/forge"
)

// Server is one loopback server: git over HTTP at /<owner>/<repo>.git and
// the fake API of Kind at /api/v3/ (GitHub) or /api/v4/ (GitLab).
type Server struct {
	// URL is the server's base URL ("http://127.0.0.1:PORT"); Host its
	// host and port, the forge host to list in settings.
	URL, Host string
	// Root holds the bare repositories (<owner>/<repo>.git).
	Root string
	Kind forge.Kind

	t    testing.TB
	srv  *httptest.Server
	git  string
	mu   sync.Mutex
	st   state
	auth struct{ user, password string }
	// readOnly answers every push with 403.
	readOnly bool
}

// New starts a server of kind k; it stops when the test ends.
func New(t testing.TB, k forge.Kind) *Server {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Root: t.TempDir(), Kind: k, t: t, git: git, st: newState()}
	mux := http.NewServeMux()
	mux.HandleFunc("/api/", s.api)
	mux.HandleFunc("/", s.gitHTTP)
	s.srv = httptest.NewServer(mux)
	t.Cleanup(s.srv.Close)
	s.URL = s.srv.URL
	s.Host = strings.TrimPrefix(s.URL, "http://")
	return s
}

// Host returns the forge.Host entry of this server for settings.
func (s *Server) ForgeHost(tokenEnv string) forge.Host {
	api := s.URL + "/api/v3/"
	if s.Kind == forge.GitLab {
		api = s.URL + "/api/v4/"
	}
	return forge.Host{Name: s.Host, Kind: s.Kind, API: api, TokenEnv: tokenEnv}
}

// NewRepo makes an empty bare repository owner/name.git and returns its
// clone URL.
func (s *Server) NewRepo(path string) string {
	s.t.Helper()
	dir := filepath.Join(s.Root, path+".git")
	if out, err := exec.Command(s.git, "init", "-q", "--bare", "-b", "main", dir).CombinedOutput(); err != nil {
		s.t.Fatalf("git init --bare: %v\n%s", err, out)
	}
	return s.URL + "/" + path + ".git"
}

// RepoDir returns the bare repository's directory.
func (s *Server) RepoDir(path string) string { return filepath.Join(s.Root, path+".git") }

// RequireAuth makes git over HTTP ask for basic auth (401 without it).
func (s *Server) RequireAuth(user, password string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.auth.user, s.auth.password = user, password
}

// ReadOnly makes every push answer 403, as a remote that refuses pushes.
func (s *Server) ReadOnly(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.readOnly = on
}

// gitHTTP serves git's smart HTTP through git http-backend.
func (s *Server) gitHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	user, password, readOnly := s.auth.user, s.auth.password, s.readOnly
	s.st.log = append(s.st.log, r.Method+" "+r.URL.Path)
	s.mu.Unlock()
	if user != "" {
		got := r.Header.Get("Authorization")
		want := "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+password))
		if got != want {
			w.Header().Set("WWW-Authenticate", `Basic realm="git"`)
			http.Error(w, "authentication required", http.StatusUnauthorized)
			return
		}
	}
	if readOnly && (strings.HasSuffix(r.URL.Path, "/git-receive-pack") || r.URL.Query().Get("service") == "git-receive-pack") {
		http.Error(w, "this remote takes no pushes", http.StatusForbidden)
		return
	}
	h := &cgi.Handler{
		Path:   s.git,
		Args:   []string{"http-backend"},
		Dir:    s.Root,
		Stderr: io.Discard,
		Env: []string{"GIT_PROJECT_ROOT=" + s.Root, "GIT_HTTP_EXPORT_ALL=1",
			"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=http.receivepack", "GIT_CONFIG_VALUE_0=true",
			"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=" + os.DevNull, "HOME=" + s.Root},
	}
	h.ServeHTTP(w, r)
}

// Requests returns the requests served so far ("GET /api/v3/...").
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.st.log...)
}
