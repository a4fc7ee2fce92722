package forgetest

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// gitlab serves the fake GitLab API (paths after /api/v4/).
func (s *Server) gitlab(w http.ResponseWriter, r *http.Request, p []string) {
	switch {
	case len(p) == 1 && p[0] == "user":
		writeJSON(w, 200, map[string]any{"id": 1, "username": s.st.user})
		return
	case len(p) == 1 && p[0] == "users":
		out := []any{}
		if u := r.URL.Query().Get("username"); u != "" && u != "nobody" {
			out = append(out, map[string]any{"id": 7, "username": u})
		}
		writeJSON(w, 200, out)
		return
	case len(p) == 1 && p[0] == "merge_requests":
		w.Header().Set("X-Total", strconv.Itoa(s.st.reviewRequests))
		writeJSON(w, 200, make([]any, 0))
		return
	case len(p) < 3 || p[0] != "projects":
		notFound(w)
		return
	}
	repo := p[1]
	if !s.hasRepo(repo) {
		notFound(w)
		return
	}
	rest := p[2:]
	switch {
	case rest[0] == "merge_requests" && len(rest) == 1 && r.Method == http.MethodPost:
		var in struct {
			Title        string `json:"title"`
			Description  string `json:"description"`
			SourceBranch string `json:"source_branch"`
			TargetBranch string `json:"target_branch"`
			Labels       string `json:"labels"`
			ReviewerIDs  []int  `json:"reviewer_ids"`
		}
		_ = decode(r, &in)
		title, draft := in.Title, strings.HasPrefix(in.Title, "Draft: ")
		pr, made, bad := s.create(repo, title, in.Description, in.SourceBranch, in.TargetBranch, draft)
		switch {
		case bad != "":
			writeJSON(w, 422, map[string]any{"message": []string{bad}})
		case !made:
			writeJSON(w, 409, map[string]any{"message": []string{"Another open merge request already exists for this source branch: !" + itoa(pr.Number)}})
		default:
			if in.Labels != "" {
				pr.Labels = strings.Split(in.Labels, ",")
			}
			for range in.ReviewerIDs {
				pr.Reviewers = append(pr.Reviewers, "reviewer")
			}
			writeJSON(w, 201, s.glMR(pr))
		}
	case rest[0] == "merge_requests" && len(rest) == 1:
		out := []any{}
		for _, pr := range s.st.prs {
			src := r.URL.Query().Get("source_branch")
			if pr.Repo == repo && (src == "" || pr.Head == src) && (r.URL.Query().Get("state") != "opened" || pr.State == "open") {
				out = append(out, s.glMR(pr))
			}
		}
		writeJSON(w, 200, out)
	case rest[0] == "merge_requests" && len(rest) >= 2:
		pr := s.st.prs[number(rest[1])]
		if pr == nil || pr.Repo != repo {
			notFound(w)
			return
		}
		s.gitlabMR(w, r, pr, rest[2:])
	case rest[0] == "issues" && len(rest) == 2:
		is := s.st.issues[number(rest[1])]
		if is == nil || is.Repo != repo {
			notFound(w)
			return
		}
		writeJSON(w, 200, map[string]any{"id": 100 + is.Number, "iid": is.Number, "title": is.Title, "description": is.Body, "labels": is.Labels,
			"state": map[string]string{"open": "opened"}[is.State], "web_url": s.URL + "/" + repo + "/-/issues/" + itoa(is.Number)})
	case rest[0] == "repository" && len(rest) == 4 && rest[1] == "commits" && rest[3] == "statuses":
		out := []any{}
		for _, c := range s.st.checks[rest[2]] {
			st := map[string]string{"pending": "running", "success": "success", "failure": "failed", "neutral": "skipped"}[c.State]
			out = append(out, map[string]any{"id": s.st.id(), "sha": rest[2], "name": strings.TrimPrefix(c.Name, "status/"), "status": st, "target_url": c.URL})
		}
		writeJSON(w, 200, out)
	default:
		notFound(w)
	}
}

func (s *Server) gitlabMR(w http.ResponseWriter, r *http.Request, pr *PR, rest []string) {
	switch {
	case len(rest) == 0 && r.Method == http.MethodPut:
		var in struct {
			StateEvent string `json:"state_event"`
		}
		_ = decode(r, &in)
		if in.StateEvent == "close" {
			pr.State = "closed"
			pr.version++
		}
		writeJSON(w, 200, s.glMR(pr))
	case len(rest) == 0:
		if tag := etag(pr); r.Header.Get("If-None-Match") == tag {
			w.Header().Set("ETag", tag)
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", etag(pr))
		writeJSON(w, 200, s.glMR(pr))
	case rest[0] == "approvals":
		approved := []any{}
		for _, rv := range s.st.reviews {
			if rv.pr == pr.Number && rv.state == "APPROVED" {
				approved = append(approved, map[string]any{"user": map[string]any{"username": rv.user}})
			}
		}
		writeJSON(w, 200, map[string]any{"iid": pr.Number, "approved": len(approved) > 0, "approved_by": approved})
	case rest[0] == "discussions":
		out := []any{}
		for _, rv := range s.st.reviews {
			if rv.pr == pr.Number && rv.txt != "" {
				out = append(out, map[string]any{"id": "d" + itoa(int(rv.id)), "notes": []any{map[string]any{"id": rv.id, "body": rv.txt,
					"author": map[string]any{"username": rv.user}, "created_at": rv.at.Format(time.RFC3339)}}})
			}
		}
		for _, c := range s.st.comments {
			if c.pr == pr.Number {
				out = append(out, map[string]any{"id": "d" + itoa(int(c.id)), "notes": []any{map[string]any{"id": c.id, "body": c.body, "type": "DiffNote",
					"author": map[string]any{"username": c.user}, "created_at": c.at.Format(time.RFC3339),
					"position": map[string]any{"new_path": c.path, "new_line": c.line, "position_type": "text"}}}})
			}
		}
		out = append(out, map[string]any{"id": "sys", "notes": []any{map[string]any{"id": 1, "body": "added 1 commit", "system": true,
			"author": map[string]any{"username": "ci"}, "created_at": "2026-01-01T00:00:00Z"}}})
		writeJSON(w, 200, out)
	case rest[0] == "notes" && r.Method == http.MethodPost:
		var in struct {
			Body string `json:"body"`
		}
		_ = decode(r, &in)
		s.st.notes[pr.Number] = append(s.st.notes[pr.Number], in.Body)
		writeJSON(w, 201, map[string]any{"id": s.st.id(), "body": in.Body})
	default:
		notFound(w)
	}
}

func (s *Server) glMR(pr *PR) map[string]any {
	dir := s.RepoDir(pr.Repo)
	state := map[string]string{"open": "opened", "closed": "closed", "merged": "merged"}[pr.State]
	status := "mergeable"
	for _, rv := range s.st.reviews {
		if rv.pr == pr.Number && rv.state == "CHANGES_REQUESTED" {
			status = "requested_changes"
		}
	}
	if status == "mergeable" && len(pr.Reviewers) > 0 {
		status = "not_approved"
		for _, rv := range s.st.reviews {
			if rv.pr == pr.Number && rv.state == "APPROVED" {
				status = "mergeable"
			}
		}
	}
	return map[string]any{"id": 500 + pr.Number, "iid": pr.Number, "title": pr.Title, "description": pr.Body, "state": state, "draft": pr.Draft,
		"source_branch": pr.Head, "target_branch": pr.Base, "sha": s.ref(dir, pr.Head), "merge_commit_sha": pr.MergeSHA,
		"labels": pr.Labels, "detailed_merge_status": status, "web_url": s.URL + "/" + pr.Repo + "/-/merge_requests/" + itoa(pr.Number)}
}

func itoa(n int) string { return strconv.Itoa(n) }
