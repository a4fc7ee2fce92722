package taskmd

import (
	"errors"
	"fmt"
	"path"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"

	"github.com/boof-runner/boof-runner/backend/task"
)

// snake turns a frontmatter key into this app's spelling: camelCase and
// kebab-case become snake_case ("completedRuns" → "completed_runs",
// "baseSHA" → "base_sha").
func snake(key string) string {
	var b strings.Builder
	rs := []rune(key)
	for i, r := range rs {
		switch {
		case r == '-' || r == ' ':
			b.WriteByte('_')
		case unicode.IsUpper(r):
			if i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1])) {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// setter reads one frontmatter value into the document being parsed.
type setter func(p *front, n *yaml.Node) error

// fields are the frontmatter keys this version knows, in snake_case (the
// earlier version's camelCase names arrive here through snake).
var fields = map[string]setter{
	"id":             func(p *front, n *yaml.Node) (err error) { p.d.Task.ID, err = oneLineText(n); return },
	"origin_id":      func(p *front, n *yaml.Node) (err error) { p.d.Task.OriginID, err = oneLineText(n); return },
	"title":          func(p *front, n *yaml.Node) (err error) { p.d.Task.Title, err = text(n); return },
	"status":         func(p *front, n *yaml.Node) error { return p.status(n) },
	"prev_status":    func(p *front, n *yaml.Node) (err error) { p.d.prevWord, err = text(n); return },
	"priority":       func(p *front, n *yaml.Node) (err error) { p.d.Task.Priority, err = integer(n); return },
	"skip":           func(p *front, n *yaml.Node) (err error) { p.d.Task.Skip, err = boolean(n); return },
	"labels":         func(p *front, n *yaml.Node) (err error) { p.d.Task.Labels, err = texts(n, true); return },
	"command":        func(p *front, n *yaml.Node) (err error) { p.d.Task.Command, err = text(n); return },
	"runs":           func(p *front, n *yaml.Node) (err error) { p.d.Task.Runs, err = integer(n); return },
	"completed_runs": func(p *front, n *yaml.Node) (err error) { p.d.Task.CompletedRuns, err = integer(n); return },
	"base":           func(p *front, n *yaml.Node) (err error) { p.d.Task.Base, err = text(n); return },
	"repo":           func(p *front, n *yaml.Node) (err error) { p.d.Task.Repo, err = text(n); return },
	"questions":      func(p *front, n *yaml.Node) (err error) { p.d.Task.Questions, err = texts(n, false); return },
	"tools":          func(p *front, n *yaml.Node) error { return p.tools(n) },
	"attachments":    func(p *front, n *yaml.Node) error { return p.attachments(n) },
	"usage":          func(p *front, n *yaml.Node) error { return p.usage("usage", n) },
	"token_usage":    func(p *front, n *yaml.Node) error { return p.usage("tokenUsage", n) },
	"branch":         func(p *front, n *yaml.Node) (err error) { p.d.Task.Branch, err = text(n); return },
	"base_sha":       func(p *front, n *yaml.Node) (err error) { p.d.Task.BaseSHA, err = text(n); return },
	"head_sha":       func(p *front, n *yaml.Node) (err error) { p.d.Task.HeadSHA, err = text(n); return },
	"worktree_path":  func(p *front, n *yaml.Node) (err error) { p.d.Task.WorktreePath, err = text(n); return },
	"error":          func(p *front, n *yaml.Node) (err error) { p.d.Task.Error, err = text(n); return },
	"created_at":     func(p *front, n *yaml.Node) (err error) { p.d.Task.CreatedAt, err = timestamp(n); return },
	"updated_at":     func(p *front, n *yaml.Node) (err error) { p.d.Task.UpdatedAt, err = timestamp(n); return },
	"started_at":     func(p *front, n *yaml.Node) (err error) { p.d.Task.StartedAt, err = optTimestamp(n); return },
	"finished_at":    func(p *front, n *yaml.Node) (err error) { p.d.Task.FinishedAt, err = optTimestamp(n); return },
	"extra":          func(p *front, n *yaml.Node) error { return p.extraField(n) },
}

// aliases are other names of a key, after snake.
var aliases = map[string]string{"usage_tokens": "token_usage", "prompt_command": "command"}

// statusNames maps the status words a file may use to a status: this app's
// and the earlier version's (which named its folders "drafts", "pending",
// "ongoing", "actions", "done", "failed", "archived").
var statusNames = map[string]task.Status{
	"drafts": task.StatusDraft, "queued": task.StatusPending, "running": task.StatusOngoing,
	"waiting": task.StatusActions, "completed": task.StatusDone, "cancelled": task.StatusStopped, "canceled": task.StatusStopped,
}

// ParseStatusWord returns the status a file's status word (or an earlier
// version's folder name) names, case-insensitively, or an error wrapping
// task.ErrUnknownStatus.
func ParseStatusWord(s string) (task.Status, error) {
	w := strings.ToLower(strings.TrimSpace(s))
	if st, ok := statusNames[w]; ok {
		return st, nil
	}
	return task.ParseStatus(w)
}

func (p *front) status(n *yaml.Node) error {
	s, err := text(n)
	if err != nil {
		return err
	}
	st, err := ParseStatusWord(s)
	if err != nil {
		return err
	}
	p.d.Task.Status, p.hasStatus = st, true
	return nil
}

// oneLineText reads text that must fit one line (an id).
func oneLineText(n *yaml.Node) (string, error) {
	s, err := text(n)
	if err != nil {
		return "", err
	}
	if len(s) > 200 || strings.IndexFunc(s, unicode.IsControl) >= 0 {
		return "", fmt.Errorf("%q must be one line of at most 200 bytes", clip(s))
	}
	return s, nil
}

// tools reads per-role tool overrides: {role: {tool, model}}. Unknown roles
// and keys are kept as unknown fields.
func (p *front) tools(n *yaml.Node) error {
	ps, err := pairs(n)
	if err != nil {
		return err
	}
	p.d.Task.Tools = task.Tools{}
	for _, kv := range ps {
		name, err := text(kv[0])
		if err != nil {
			return err
		}
		role, err := task.ParseRole(snake(name))
		if err != nil {
			if err := p.unknown("tools."+name, kv[1]); err != nil {
				return err
			}
			continue
		}
		if isNull(kv[1]) {
			continue
		}
		var c task.ToolChoice
		sub, err := pairs(kv[1])
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		for _, f := range sub {
			k, err := text(f[0])
			if err != nil {
				return err
			}
			switch snake(k) {
			case "tool":
				c.Tool, err = text(f[1])
			case "model":
				c.Model, err = text(f[1])
			default:
				err = p.unknown("tools."+name+"."+k, f[1])
			}
			if err != nil {
				return fmt.Errorf("%s.%s: %w", name, k, err)
			}
		}
		p.d.Task.Tools[role] = c
	}
	return nil
}

// usage reads token usage in this app's names or the earlier version's.
func (p *front) usage(key string, n *yaml.Node) error {
	if p.seenUsage {
		return errors.New("usage is given twice (usage and tokenUsage)")
	}
	p.seenUsage = true
	ps, err := pairs(n)
	if err != nil {
		return err
	}
	u := &p.d.Task.Usage
	for _, kv := range ps {
		k, err := text(kv[0])
		if err != nil {
			return err
		}
		switch snake(k) {
		case "tokens_in", "input_tokens", "input":
			u.TokensIn, err = whole(kv[1])
		case "tokens_out", "output_tokens", "output":
			u.TokensOut, err = whole(kv[1])
		case "cache_read", "cache_read_tokens", "cache_read_input_tokens":
			u.CacheRead, err = whole(kv[1])
		case "cache_write", "cache_write_tokens", "cache_creation_input_tokens":
			u.CacheWrite, err = whole(kv[1])
		case "cost_usd", "cost", "total_cost_usd":
			u.CostUSD, err = number(kv[1])
		default:
			err = p.unknown(key+"."+k, kv[1])
		}
		if err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
	}
	return nil
}

// attachments reads attachment names: a list of names or paths, or of maps
// with a name.
func (p *front) attachments(n *yaml.Node) error {
	n = resolve(n)
	p.d.Attachments = nil
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		return errors.New("must be a list")
	}
	for i, c := range n.Content {
		name := ""
		c = resolve(c)
		if c != nil && c.Kind == yaml.MappingNode {
			ps, _ := pairs(c)
			for _, kv := range ps {
				if k, _ := text(kv[0]); snake(k) == "name" || snake(k) == "file_name" || snake(k) == "filename" || (name == "" && snake(k) == "path") {
					name, _ = text(kv[1])
				}
			}
		} else {
			var err error
			if name, err = text(c); err != nil {
				return fmt.Errorf("item %d: %w", i+1, err)
			}
		}
		if name = path.Base(strings.ReplaceAll(strings.TrimSpace(name), `\`, "/")); name == "" || name == "." || name == "/" {
			return fmt.Errorf("item %d has no file name", i+1)
		}
		p.d.Attachments = append(p.d.Attachments, name)
	}
	return nil
}
