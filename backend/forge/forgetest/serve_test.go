package forgetest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"testing"

	"github.com/boof-runner/boof-runner/backend/forge"
)

// TestServe runs the fake forge as a process on loopback, for the browser
// flows against the real app (frontend/e2e/real/forge.mjs): the compiled
// test binary (`go test -c`), so it stays out of the production binary.
// BOOF_FAKE_FORGE names the kind (github or gitlab); BOOF_FAKE_FORGE_REPO
// the repository it holds (default me/app); BOOF_FAKE_FORGE_TOKEN the one
// token its API takes. It prints one JSON line (its URL, host, API base,
// clone URL and the URL of its control server, which scripts the forge's
// side: checks, reviews, states) and serves until SIGTERM or SIGINT.
// Without BOOF_FAKE_FORGE it is skipped.
func TestServe(t *testing.T) {
	kind := os.Getenv("BOOF_FAKE_FORGE")
	if kind == "" {
		t.Skip("BOOF_FAKE_FORGE=github|gitlab serves the fake forge as a process (e2e/real/forge.mjs)")
	}
	if kind != string(forge.GitHub) && kind != string(forge.GitLab) {
		t.Fatalf("BOOF_FAKE_FORGE: %q is not github or gitlab", kind)
	}
	repo := os.Getenv("BOOF_FAKE_FORGE_REPO")
	if repo == "" {
		repo = "me/app"
	}
	s := New(t, forge.Kind(kind))
	clone := s.NewRepo(repo)
	if tok := os.Getenv("BOOF_FAKE_FORGE_TOKEN"); tok != "" {
		s.SetToken(tok)
	}
	ctl := httptest.NewServer(control(s, repo))
	defer ctl.Close()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	line, _ := json.Marshal(map[string]string{"url": s.URL, "host": s.Host, "api": s.ForgeHost("").API, "clone": clone, "control": ctl.URL})
	os.Stdout.Write(append(line, '\n'))
	<-ctx.Done()
}

// control scripts the forge's side over HTTP (POST, form values): the
// checks of a pull request's head, a review, a line comment, a state, a
// merge, an issue, a scripted failure; GET /pr?n=N reads a pull request
// back (with its head commit on the forge and the comments posted on it),
// GET /requests the API requests served.
func control(s *Server, repo string) http.Handler {
	mux := http.NewServeMux()
	pr := func(w http.ResponseWriter, r *http.Request) (PR, bool) {
		n, _ := strconv.Atoi(r.FormValue("n"))
		p, ok := s.PR(n)
		if !ok {
			http.Error(w, "no pull request "+r.FormValue("n"), http.StatusNotFound)
		}
		return p, ok
	}
	mux.HandleFunc("GET /pr", func(w http.ResponseWriter, r *http.Request) {
		if p, ok := pr(w, r); ok {
			writeJSON(w, http.StatusOK, map[string]any{"number": p.Number, "state": p.State, "draft": p.Draft, "head": p.Head, "base": p.Base, "title": p.Title,
				"body": p.Body, "head_sha": s.Branch(repo, p.Head), "merge_sha": p.MergeSHA, "notes": s.Notes(p.Number)})
		}
	})
	mux.HandleFunc("GET /requests", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, append([]string{}, s.Requests()...))
	})
	mux.HandleFunc("POST /comment", func(w http.ResponseWriter, r *http.Request) {
		if p, ok := pr(w, r); ok {
			line, _ := strconv.Atoi(r.FormValue("line"))
			s.AddLineComment(p.Number, r.FormValue("user"), r.FormValue("path"), line, r.FormValue("body"))
			w.WriteHeader(http.StatusNoContent)
		}
	})
	mux.HandleFunc("POST /merge", func(w http.ResponseWriter, r *http.Request) {
		if p, ok := pr(w, r); ok {
			writeJSON(w, http.StatusOK, map[string]string{"merge_sha": s.Merge(p.Number)})
		}
	})
	mux.HandleFunc("POST /issue", func(w http.ResponseWriter, r *http.Request) {
		n, err := strconv.Atoi(r.FormValue("n"))
		if err != nil {
			http.Error(w, "n: "+err.Error(), http.StatusBadRequest)
			return
		}
		s.AddIssue(repo, n, r.FormValue("title"), r.FormValue("body"), r.Form["label"]...)
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST /fail", func(w http.ResponseWriter, r *http.Request) {
		times, _ := strconv.Atoi(r.FormValue("times"))
		status, _ := strconv.Atoi(r.FormValue("status"))
		s.Fail(r.FormValue("match"), times, status, nil, r.FormValue("type"), r.FormValue("body"))
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST /checks", func(w http.ResponseWriter, r *http.Request) {
		if p, ok := pr(w, r); ok {
			s.SetChecks(s.Branch(repo, p.Head), forge.Check{Name: r.FormValue("name"), State: r.FormValue("state")})
			w.WriteHeader(http.StatusNoContent)
		}
	})
	mux.HandleFunc("POST /review", func(w http.ResponseWriter, r *http.Request) {
		if p, ok := pr(w, r); ok {
			s.AddReview(p.Number, r.FormValue("user"), r.FormValue("state"), r.FormValue("body"))
			w.WriteHeader(http.StatusNoContent)
		}
	})
	mux.HandleFunc("POST /state", func(w http.ResponseWriter, r *http.Request) {
		if p, ok := pr(w, r); ok {
			s.SetState(p.Number, r.FormValue("state"))
			w.WriteHeader(http.StatusNoContent)
		}
	})
	return mux
}
