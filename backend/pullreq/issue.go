package pullreq

import (
	"context"
	"fmt"
	"strings"

	"github.com/boof-runner/boof-runner/backend/intake"

	"github.com/boof-runner/boof-runner/backend/forge"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// FromIssue creates a task from the issue at url (a GitHub or GitLab
// issue's web address): n's title, prompt and labels come from the issue's
// (a title or labels given in n win), the prompt being the issue's title,
// its body and its address, verbatim. The task is linked to the issue, so
// its pull request says it closes it. A public issue is read without a
// token when none is known. n's repository (else the settings' working
// directory) is checked before the forge is asked. Errors:
// *forge.UnknownForgeError, *forge.BadIssueURLError, intake's (no
// repository, not usable), the forge's (a *forge.NotFoundError for an
// issue that does not exist), the store's; nothing is created then.
func (s *Service) FromIssue(ctx context.Context, url string, n task.NewTask) (task.Task, error) {
	p, number, err := forge.ParseIssueURL(url, s.hosts())
	if err != nil {
		return task.Task{}, err
	}
	if _, err := s.d.Intake.Check(ctx, n); err != nil {
		return task.Task{}, err
	}
	f, err := s.client(ctx, p, true)
	if err != nil {
		return task.Task{}, err
	}
	var is forge.Issue
	err = s.withTimeout(ctx, p.Host, func(ctx context.Context) error {
		is, err = f.Issue(ctx, number)
		return err
	})
	if err != nil {
		return task.Task{}, err
	}
	if is.URL == "" {
		is.URL = strings.TrimSpace(url)
	}
	if strings.TrimSpace(n.Title) == "" {
		n.Title = Title(task.Task{Title: firstLine(is.Title)})
	}
	n.Prompt = fmt.Sprintf("%s\n\n%s\n\n(Issue: %s)", strings.TrimSpace(is.Title), strings.TrimSpace(is.Body), is.URL)
	if len(n.Labels) == 0 {
		for _, l := range is.Labels {
			if ls, err := task.NormalizeLabels([]string{l}); err == nil {
				n.Labels = append(n.Labels, ls...)
			}
		}
	}
	created, err := s.d.Intake.Task(ctx, intake.Request{Task: n, Issue: &store.IssueLink{Forge: string(p.Kind), Host: p.Host,
		Project: p.Path, Number: is.Number, URL: is.URL, Title: is.Title}})
	return created.Task, err
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}
