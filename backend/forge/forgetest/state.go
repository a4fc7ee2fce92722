package forgetest

import (
	"fmt"
	"net/http"
	"os/exec"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/forge"
)

// PR is a pull request (merge request) of the fake forge.
type PR struct {
	Number     int
	Repo       string
	Title      string
	Body       string
	Head, Base string
	// State is "open", "closed" or "merged".
	State     string
	Draft     bool
	MergeSHA  string
	Labels    []string
	Reviewers []string
	// version changes with every change (the ETag).
	version int
}

// Issue is an issue of the fake forge.
type Issue struct {
	Number int
	Repo   string
	Title  string
	Body   string
	Labels []string
	State  string
}

type review struct {
	id               int64
	pr               int
	user, state, txt string
	at               time.Time
}

type lineComment struct {
	id               int64
	pr               int
	user, path, body string
	line             int
	at               time.Time
}

// failure is a scripted answer: the next Times requests whose path holds
// Match get it.
type failure struct {
	match       string
	status      int
	header      http.Header
	contentType string
	body        string
	times       int
}

type state struct {
	prs            map[int]*PR
	next           int
	issues         map[int]*Issue
	reviews        []review
	comments       []lineComment
	notes          map[int][]string
	checks         map[string][]forge.Check
	fails          []*failure
	log            []string
	token          string
	user           string
	reviewRequests int
	nextID         int64
	clock          time.Time
}

func newState() state {
	return state{prs: map[int]*PR{}, next: 1, issues: map[int]*Issue{}, notes: map[int][]string{},
		checks: map[string][]forge.Check{}, user: "boof", nextID: 1000, clock: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
}

func (st *state) tick() time.Time {
	st.clock = st.clock.Add(time.Minute)
	return st.clock
}

func (st *state) id() int64 {
	st.nextID++
	return st.nextID
}

// SetToken makes the API refuse (401) any other token.
func (s *Server) SetToken(tok string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.token = tok
}

// SetReviewRequests sets how many open pull requests wait for the
// token's user's review.
func (s *Server) SetReviewRequests(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.reviewRequests = n
}

// AddIssue adds an open issue to repo.
func (s *Server) AddIssue(repo string, number int, title, body string, labels ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.issues[number] = &Issue{Number: number, Repo: repo, Title: title, Body: body, Labels: labels, State: "open"}
}

// PR returns a copy of pull request n, and false when there is none.
func (s *Server) PR(n int) (PR, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	pr, ok := s.st.prs[n]
	if !ok {
		return PR{}, false
	}
	return *pr, true
}

// PRs returns how many pull requests were ever opened.
func (s *Server) PRs() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.st.prs)
}

// SetState sets pull request n's state: "open", "draft" or "closed".
func (s *Server) SetState(n int, state string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	pr := s.st.prs[n]
	pr.Draft = state == "draft"
	if state == "draft" {
		state = "open"
	}
	pr.State = state
	pr.version++
}

// DeletePR removes pull request n, as an admin deleting it would.
func (s *Server) DeletePR(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.st.prs, n)
}

// Merge merges pull request n: a merge commit of its base and head in the
// bare repository, the base moved to it, the pull request merged. It
// returns the merge commit.
func (s *Server) Merge(n int) string {
	s.t.Helper()
	s.mu.Lock()
	pr := *s.st.prs[n]
	s.mu.Unlock()
	dir := s.RepoDir(pr.Repo)
	base, head := s.ref(dir, pr.Base), s.ref(dir, pr.Head)
	tree := s.gitOut(dir, "rev-parse", head+"^{tree}")
	merge := s.gitOut(dir, "-c", "user.name=Forge", "-c", "user.email=forge@example.com", "commit-tree", tree, "-p", base, "-p", head, "-m", fmt.Sprintf("Merge pull request #%d", n))
	s.gitOut(dir, "update-ref", "refs/heads/"+pr.Base, merge, base)
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.st.prs[n]
	p.State, p.MergeSHA = "merged", merge
	p.version++
	return merge
}

// AddReview adds a review of pull request n by user: state is
// "APPROVED", "CHANGES_REQUESTED" or "COMMENTED".
func (s *Server) AddReview(n int, user, state, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.reviews = append(s.st.reviews, review{id: s.st.id(), pr: n, user: user, state: state, txt: body, at: s.st.tick()})
	s.st.prs[n].version++
}

// AddLineComment adds a review comment on line of path in pull request n.
func (s *Server) AddLineComment(n int, user, path string, line int, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.comments = append(s.st.comments, lineComment{id: s.st.id(), pr: n, user: user, path: path, line: line, body: body, at: s.st.tick()})
}

// SetChecks sets the checks of commit sha.
func (s *Server) SetChecks(sha string, cs ...forge.Check) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.checks[sha] = cs
}

// Notes returns the comments posted on pull request n.
func (s *Server) Notes(n int) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.st.notes[n]...)
}

// Fail answers the next times requests whose path contains match with
// status, header and body (of contentType; "" = application/json).
func (s *Server) Fail(match string, times, status int, header http.Header, contentType, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if contentType == "" {
		contentType = "application/json"
	}
	s.st.fails = append(s.st.fails, &failure{match: match, status: status, header: header, contentType: contentType, body: body, times: times})
}

// scripted writes a scripted failure for r, if one matches.
func (s *Server) scripted(w http.ResponseWriter, r *http.Request) bool {
	for _, f := range s.st.fails {
		if f.times > 0 && strings.Contains(r.URL.Path, f.match) {
			f.times--
			for k, vs := range f.header {
				for _, v := range vs {
					w.Header().Add(k, v)
				}
			}
			w.Header().Set("Content-Type", f.contentType)
			w.WriteHeader(f.status)
			fmt.Fprint(w, f.body)
			return true
		}
	}
	return false
}

// ref returns the commit of branch in the bare repository dir ("" when
// it does not exist).
func (s *Server) ref(dir, branch string) string {
	out, err := exec.Command(s.git, "-C", dir, "rev-parse", "--verify", "--quiet", "refs/heads/"+branch).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

func (s *Server) gitOut(dir string, args ...string) string {
	s.t.Helper()
	out, err := exec.Command(s.git, append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// RenameHead renames pull request n's head branch in the bare repository,
// as renaming a branch on the forge does (the pull request follows it).
func (s *Server) RenameHead(n int, name string) {
	s.t.Helper()
	s.mu.Lock()
	pr := s.st.prs[n]
	old, repo := pr.Head, pr.Repo
	s.mu.Unlock()
	s.gitOut(s.RepoDir(repo), "branch", "-m", old, name)
	s.mu.Lock()
	defer s.mu.Unlock()
	pr.Head = name
	pr.version++
}

// Branch returns the commit branch points at in the bare repository
// path ("" when it does not exist).
func (s *Server) Branch(path, branch string) string { return s.ref(s.RepoDir(path), branch) }
