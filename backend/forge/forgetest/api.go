package forgetest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
)

// api serves the fake forge's API: the token is checked, a scripted
// failure answers first, then the forge's routes.
func (s *Server) api(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.log = append(s.st.log, r.Method+" "+r.URL.Path)
	if s.scripted(w, r) {
		return
	}
	if s.st.token != "" && r.Header.Get("Authorization") != "Bearer "+s.st.token && r.Header.Get("PRIVATE-TOKEN") != s.st.token {
		writeJSON(w, http.StatusUnauthorized, map[string]any{"message": "401 Unauthorized"})
		return
	}
	var parts []string
	for _, p := range strings.Split(strings.Trim(r.URL.EscapedPath(), "/"), "/") {
		u, _ := url.PathUnescape(p)
		parts = append(parts, u)
	}
	if len(parts) < 3 {
		writeJSON(w, http.StatusNotFound, map[string]any{"message": "Not Found"})
		return
	}
	switch parts[1] {
	case "v3":
		s.github(w, r, parts[2:])
	case "v4":
		s.gitlab(w, r, parts[2:])
	default:
		writeJSON(w, http.StatusNotFound, map[string]any{"message": "Not Found"})
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func notFound(w http.ResponseWriter) {
	writeJSON(w, http.StatusNotFound, map[string]any{"message": "Not Found"})
}

// hasRepo reports whether the bare repository of path exists.
func (s *Server) hasRepo(path string) bool {
	fi, err := os.Stat(s.RepoDir(path))
	return err == nil && fi.IsDir()
}

// openPR returns the open pull request of repo whose head is branch.
func (s *Server) openPR(repo, head string) *PR {
	for _, pr := range s.st.prs {
		if pr.Repo == repo && pr.Head == head && pr.State == "open" {
			return pr
		}
	}
	return nil
}

// create opens a pull request, or returns the open one of the same head
// (second result false) or an error text for a head that does not exist.
func (s *Server) create(repo, title, body, head, base string, draft bool) (*PR, bool, string) {
	if old := s.openPR(repo, head); old != nil {
		return old, false, ""
	}
	if s.ref(s.RepoDir(repo), head) == "" {
		return nil, false, "head branch " + head + " does not exist"
	}
	pr := &PR{Number: s.st.next, Repo: repo, Title: title, Body: body, Head: head, Base: base, State: "open", Draft: draft}
	for _, is := range s.st.issues {
		if is.Number >= pr.Number {
			pr.Number = is.Number + 1
		}
	}
	s.st.next = pr.Number + 1
	s.st.prs[pr.Number] = pr
	return pr, true, ""
}

func decode(r *http.Request, v any) error { return json.NewDecoder(r.Body).Decode(v) }

func number(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return -1
	}
	return n
}

// etag is the version of a pull request as an ETag.
func etag(pr *PR) string { return fmt.Sprintf(`"pr-%d-%d"`, pr.Number, pr.version) }
