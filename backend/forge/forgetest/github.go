package forgetest

import (
	"net/http"
	"strings"
	"time"
)

// github serves the fake GitHub API (paths after /api/v3/).
func (s *Server) github(w http.ResponseWriter, r *http.Request, p []string) {
	switch {
	case len(p) == 1 && p[0] == "user":
		writeJSON(w, 200, map[string]any{"login": s.st.user, "id": 1})
		return
	case len(p) == 2 && p[0] == "search" && p[1] == "issues":
		writeJSON(w, 200, map[string]any{"total_count": s.st.reviewRequests, "incomplete_results": false, "items": []any{}})
		return
	case len(p) < 4 || p[0] != "repos":
		notFound(w)
		return
	}
	repo := p[1] + "/" + p[2]
	if !s.hasRepo(repo) {
		notFound(w)
		return
	}
	rest := p[3:]
	switch {
	case rest[0] == "pulls" && len(rest) == 1 && r.Method == http.MethodPost:
		var in struct {
			Title, Body, Head, Base string
			Draft                   bool
		}
		_ = decode(r, &in)
		pr, made, bad := s.create(repo, in.Title, in.Body, in.Head, in.Base, in.Draft)
		switch {
		case bad != "":
			writeJSON(w, 422, map[string]any{"message": "Validation Failed", "errors": []any{map[string]any{"resource": "PullRequest", "field": "head", "code": "invalid", "message": bad}}})
		case !made:
			writeJSON(w, 422, map[string]any{"message": "Validation Failed", "errors": []any{map[string]any{"resource": "PullRequest", "code": "custom",
				"message": "A pull request already exists for " + p[1] + ":" + in.Head + "."}}})
		default:
			writeJSON(w, 201, s.ghPR(pr))
		}
	case rest[0] == "pulls" && len(rest) == 1:
		head := r.URL.Query().Get("head")
		_, head, _ = strings.Cut(head, ":")
		out := []any{}
		for _, pr := range s.st.prs {
			if pr.Repo == repo && (head == "" || pr.Head == head) && (r.URL.Query().Get("state") != "open" || pr.State == "open") {
				out = append(out, s.ghPR(pr))
			}
		}
		writeJSON(w, 200, out)
	case rest[0] == "pulls" && len(rest) >= 2:
		pr := s.st.prs[number(rest[1])]
		if pr == nil || pr.Repo != repo {
			notFound(w)
			return
		}
		s.githubPull(w, r, pr, rest[2:])
	case rest[0] == "issues" && len(rest) >= 2:
		s.githubIssue(w, r, repo, number(rest[1]), rest[2:])
	case rest[0] == "commits" && len(rest) == 3 && rest[2] == "check-runs":
		runs := []any{}
		for _, c := range s.st.checks[rest[1]] {
			if strings.HasPrefix(c.Name, "status/") {
				continue
			}
			status, concl := "completed", c.State
			if c.State == "pending" {
				status, concl = "in_progress", ""
			}
			runs = append(runs, map[string]any{"name": c.Name, "status": status, "conclusion": concl, "html_url": c.URL})
		}
		writeJSON(w, 200, map[string]any{"total_count": len(runs), "check_runs": runs})
	case rest[0] == "commits" && len(rest) == 3 && rest[2] == "status":
		sts := []any{}
		for _, c := range s.st.checks[rest[1]] {
			if name, ok := strings.CutPrefix(c.Name, "status/"); ok {
				sts = append(sts, map[string]any{"context": name, "state": c.State, "target_url": c.URL})
			}
		}
		writeJSON(w, 200, map[string]any{"state": "pending", "statuses": sts})
	default:
		notFound(w)
	}
}

func (s *Server) githubPull(w http.ResponseWriter, r *http.Request, pr *PR, rest []string) {
	switch {
	case len(rest) == 0 && r.Method == http.MethodPatch:
		var in struct{ State string }
		_ = decode(r, &in)
		if in.State != "" {
			pr.State = in.State
			pr.version++
		}
		writeJSON(w, 200, s.ghPR(pr))
	case len(rest) == 0:
		if tag := etag(pr); r.Header.Get("If-None-Match") == tag {
			w.Header().Set("ETag", tag)
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", etag(pr))
		writeJSON(w, 200, s.ghPR(pr))
	case rest[0] == "reviews":
		out := []any{}
		for _, rv := range s.st.reviews {
			if rv.pr == pr.Number {
				out = append(out, map[string]any{"id": rv.id, "user": map[string]any{"login": rv.user}, "state": rv.state, "body": rv.txt, "submitted_at": rv.at.Format(time.RFC3339)})
			}
		}
		writeJSON(w, 200, out)
	case rest[0] == "comments":
		out := []any{}
		for _, c := range s.st.comments {
			if c.pr == pr.Number {
				out = append(out, map[string]any{"id": c.id, "user": map[string]any{"login": c.user}, "path": c.path, "line": c.line, "body": c.body, "created_at": c.at.Format(time.RFC3339)})
			}
		}
		writeJSON(w, 200, out)
	case rest[0] == "requested_reviewers" && r.Method == http.MethodPost:
		var in struct{ Reviewers []string }
		_ = decode(r, &in)
		pr.Reviewers = append(pr.Reviewers, in.Reviewers...)
		writeJSON(w, 201, s.ghPR(pr))
	default:
		notFound(w)
	}
}

func (s *Server) githubIssue(w http.ResponseWriter, r *http.Request, repo string, n int, rest []string) {
	switch {
	case len(rest) == 1 && rest[0] == "labels" && r.Method == http.MethodPost:
		var labels []string
		_ = decode(r, &labels)
		pr := s.st.prs[n]
		if pr == nil {
			notFound(w)
			return
		}
		pr.Labels = append(pr.Labels, labels...)
		out := []any{}
		for _, l := range pr.Labels {
			out = append(out, map[string]any{"name": l})
		}
		writeJSON(w, 200, out)
	case len(rest) == 1 && rest[0] == "comments" && r.Method == http.MethodPost:
		var in struct{ Body string }
		_ = decode(r, &in)
		if s.st.prs[n] == nil && s.st.issues[n] == nil {
			notFound(w)
			return
		}
		s.st.notes[n] = append(s.st.notes[n], in.Body)
		writeJSON(w, 201, map[string]any{"id": s.st.id(), "body": in.Body})
	case len(rest) == 0:
		is := s.st.issues[n]
		if is == nil || is.Repo != repo {
			notFound(w)
			return
		}
		labels := []any{}
		for _, l := range is.Labels {
			labels = append(labels, map[string]any{"name": l})
		}
		writeJSON(w, 200, map[string]any{"number": is.Number, "title": is.Title, "body": is.Body, "state": is.State, "labels": labels,
			"html_url": s.URL + "/" + repo + "/issues/" + itoa(is.Number)})
	default:
		notFound(w)
	}
}

func (s *Server) ghPR(pr *PR) map[string]any {
	dir := s.RepoDir(pr.Repo)
	state := pr.State
	merged := state == "merged"
	if merged {
		state = "closed"
	}
	reviewers := []any{}
	for _, u := range pr.Reviewers {
		reviewers = append(reviewers, map[string]any{"login": u})
	}
	out := map[string]any{"number": pr.Number, "title": pr.Title, "body": pr.Body, "state": state, "draft": pr.Draft,
		"merged": merged, "html_url": s.URL + "/" + pr.Repo + "/pull/" + itoa(pr.Number),
		"head": map[string]any{"ref": pr.Head, "sha": s.ref(dir, pr.Head)}, "base": map[string]any{"ref": pr.Base, "sha": s.ref(dir, pr.Base)},
		"requested_reviewers": reviewers}
	if merged {
		out["merge_commit_sha"] = pr.MergeSHA
		out["merged_at"] = "2026-01-02T03:04:05Z"
	}
	return out
}
