package taskmd

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

// Parse reads a task markdown file written by Write (or by hand in the same
// format). It returns an error wrapping ErrFormat, naming the line, for
// anything it does not understand: a missing or unterminated frontmatter, an
// unknown or repeated field, an unknown status (also wrapping
// task.ErrUnknownStatus), a bad value, an unknown heading, an unterminated
// fence, or task fields that fail task validation (also wrapping
// task.ErrInvalid). Sections that are absent (an observer report, say) are
// simply empty.
func Parse(data []byte) (Doc, error) {
	if len(data) > MaxSize {
		return Doc{}, fmt.Errorf("%w: file is larger than %d bytes", ErrFormat, MaxSize)
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return Doc{}, fmt.Errorf("%w: file contains NUL bytes", ErrFormat)
	}
	p := &parser{lines: strings.Split(string(data), "\n")}
	var d Doc
	if err := p.frontmatter(&d); err != nil {
		return Doc{}, err
	}
	if err := p.body(&d); err != nil {
		return Doc{}, err
	}
	if err := validate(d); err != nil {
		return Doc{}, err
	}
	return d, nil
}

type parser struct {
	lines []string
	i     int // index of the next line
}

func (p *parser) errf(line int, format string, args ...any) error {
	return fmt.Errorf("%w: line %d: %s", ErrFormat, line+1, fmt.Sprintf(format, args...))
}

// structural returns line i without a trailing CR, for matching syntax.
func (p *parser) structural(i int) string { return strings.TrimSuffix(p.lines[i], "\r") }

func (p *parser) frontmatter(d *Doc) error {
	if len(p.lines) == 0 || p.structural(0) != "---" {
		return p.errf(0, "the file must start with a --- frontmatter line")
	}
	seen := map[string]bool{}
	for p.i = 1; p.i < len(p.lines); p.i++ {
		line := p.structural(p.i)
		if line == "---" {
			p.i++
			if !seen["status"] {
				return p.errf(p.i-1, "frontmatter has no status")
			}
			return nil
		}
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok || key != strings.TrimSpace(key) || key == "" {
			return p.errf(p.i, "expected \"key: value\"")
		}
		if seen[key] {
			return p.errf(p.i, "field %q appears twice", key)
		}
		seen[key] = true
		if err := setField(d, key, strings.TrimSpace(val)); err != nil {
			return fmt.Errorf("%w: line %d: %w", ErrFormat, p.i+1, err)
		}
	}
	return p.errf(len(p.lines)-1, "frontmatter is not closed with ---")
}

// fenced reads a fenced block starting at the next non-blank line and
// returns its exact body.
func (p *parser) fenced() (string, error) {
	p.skipBlank()
	if p.i >= len(p.lines) {
		return "", p.errf(p.i-1, "expected a ~~~ fenced block")
	}
	open := p.structural(p.i)
	if len(open) < 3 || strings.Trim(open, "~") != "" {
		return "", p.errf(p.i, "expected a ~~~ fenced block")
	}
	start := p.i + 1
	for j := start; j < len(p.lines); j++ {
		if p.structural(j) == open {
			p.i = j + 1
			return strings.Join(p.lines[start:j], "\n"), nil
		}
	}
	return "", p.errf(p.i, "fenced block is not closed")
}

func (p *parser) skipBlank() {
	for p.i < len(p.lines) && strings.TrimSpace(p.structural(p.i)) == "" {
		p.i++
	}
}

func (p *parser) body(d *Doc) error {
	var kind task.SectionKind // current entry kind, "" when none
	inReports, sawTitle := false, false
	seen := map[string]bool{}
	for p.skipBlank(); p.i < len(p.lines); p.skipBlank() {
		at := p.i
		line := p.structural(at)
		switch {
		case strings.HasPrefix(line, "#### "):
			if kind == "" {
				return p.errf(at, "entry outside a section")
			}
			sec, err := parseEntry(strings.TrimPrefix(line, "#### "))
			if err != nil {
				return fmt.Errorf("%w: line %d: %w", ErrFormat, at+1, err)
			}
			p.i++
			if sec.Body, err = p.fenced(); err != nil {
				return err
			}
			sec.Kind = kind
			d.Sections = append(d.Sections, sec)
			continue
		case strings.HasPrefix(line, "### "):
			if !inReports {
				return p.errf(at, "report heading outside ## Reports")
			}
			kind = kindFor(strings.TrimPrefix(line, "### "), 3)
		case strings.HasPrefix(line, "## "):
			title := strings.TrimPrefix(line, "## ")
			inReports, kind = false, ""
			switch title {
			case "Prompt", "Log", reportsTitle:
				inReports = title == reportsTitle
			default:
				if kind = kindFor(title, 2); kind == "" {
					return p.errf(at, "unknown section %q", title)
				}
			}
			if seen[title] {
				return p.errf(at, "section %q appears twice", title)
			}
			seen[title] = true
			p.i++
			var err error
			switch title {
			case "Prompt":
				d.Task.Prompt, err = p.fenced()
			case "Log":
				err = p.log(d)
			}
			if err != nil {
				return err
			}
			continue
		case strings.HasPrefix(line, "# ") && !sawTitle && len(seen) == 0:
			sawTitle = true
		default:
			return p.errf(at, "unexpected line %q", clip(line))
		}
		if strings.HasPrefix(line, "### ") {
			if kind == "" {
				return p.errf(at, "unknown report %q", strings.TrimPrefix(line, "### "))
			}
			if seen["### "+string(kind)] {
				return p.errf(at, "report %q appears twice", strings.TrimPrefix(line, "### "))
			}
			seen["### "+string(kind)] = true
		}
		p.i++
	}
	if !seen["Prompt"] {
		return fmt.Errorf("%w: no ## Prompt section", ErrFormat)
	}
	return nil
}

func kindFor(title string, level int) task.SectionKind {
	for _, h := range headings {
		if h.title == title && h.level == level {
			return h.kind
		}
	}
	return ""
}

func (p *parser) log(d *Doc) error {
	start := p.i
	p.skipBlank()
	body, err := p.fenced()
	if err != nil {
		return err
	}
	if body == "" {
		return nil
	}
	for n, line := range strings.Split(body, "\n") {
		ts, rest, ok1 := strings.Cut(line, " ")
		level, text, ok2 := strings.Cut(rest, " ")
		at, err := time.Parse(time.RFC3339Nano, ts)
		if !ok1 || !ok2 || err != nil || level == "" {
			return p.errf(start+n+1, "log line must be \"<RFC 3339 time> <level> <text>\"")
		}
		if strings.HasPrefix(text, `"`) {
			if text, err = strconv.Unquote(text); err != nil {
				return p.errf(start+n+1, "log text is not a valid quoted string")
			}
		}
		d.Log = append(d.Log, LogEntry{At: at.UTC(), Level: task.LogLevel(level), Text: text})
	}
	return nil
}

func parseEntry(attrs string) (task.Section, error) {
	var s task.Section
	seen := map[string]bool{}
	for _, f := range strings.Fields(attrs) {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			return s, fmt.Errorf("entry attribute %q is not key=value", clip(f))
		}
		if seen[k] {
			return s, fmt.Errorf("entry attribute %q appears twice", k)
		}
		seen[k] = true
		var err error
		switch k {
		case "iteration":
			s.Iteration, err = strconv.Atoi(v)
		case "round":
			s.Round, err = strconv.Atoi(v)
		case "role":
			s.Role, err = task.ParseStepRole(v)
		case "verdict":
			s.Verdict = v
		case "step":
			s.Step = v
		case "at":
			s.CreatedAt, err = time.Parse(time.RFC3339Nano, v)
			s.CreatedAt = s.CreatedAt.UTC()
		default:
			return s, fmt.Errorf("unknown entry attribute %q", clip(k))
		}
		if err != nil {
			return s, fmt.Errorf("entry attribute %s: bad value %q", k, clip(v))
		}
	}
	return s, nil
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}
