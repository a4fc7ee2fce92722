package taskmd

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/boof-runner/boof-runner/backend/task"
)

// Parse reads a task markdown file: this app's export (Write) or a task
// file of the earlier version (camelCase keys, null values, plain-text
// sections under its own headings, "#### Round N" entries, a "- <time>
// <text>" log). It returns an error wrapping ErrFormat, naming the line,
// for what it cannot read: a missing or unterminated frontmatter, YAML that
// does not parse, a key given twice, an unknown status (also wrapping
// task.ErrUnknownStatus), a bad value, an unterminated fence, stray text, or
// task fields that fail task validation (also wrapping task.ErrInvalid).
// Unknown keys and sections are kept in Task.Extra and named in Notes; an
// ongoing task becomes stopped (its run is gone). Sections that are absent
// (an observer report, say) are simply empty.
func Parse(data []byte) (Doc, error) { return ParseWith(data, ParseOptions{}) }

// ParseOptions change how ParseWith reads a file.
type ParseOptions struct {
	// Status, when set, is the status the file's folder names (the earlier
	// version kept one folder per status, and its folder won over the
	// frontmatter); it replaces the file's status, with a note.
	Status task.Status
}

// ParseWith is Parse with options.
func ParseWith(data []byte, o ParseOptions) (Doc, error) {
	if len(data) > MaxSize {
		return Doc{}, fmt.Errorf("%w: file is larger than %d MiB", ErrFormat, MaxSize>>20)
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return Doc{}, fmt.Errorf("%w: file contains NUL bytes", ErrFormat)
	}
	lines := strings.Split(string(data), "\n")
	fm, start, err := splitFront(lines)
	if err != nil {
		return Doc{}, err
	}
	d := Doc{Format: FormatBoof}
	if err := readFront(&d, fm); err != nil {
		return Doc{}, err
	}
	if o.Status != "" && o.Status != d.Task.Status {
		d.Notes = append(d.Notes, fmt.Sprintf("status %s from its folder (the file says %s)", o.Status, d.Task.Status))
		d.Task.Status = o.Status
	}
	p := &parser{lines: lines, i: start, d: &d}
	if err := p.body(); err != nil {
		return Doc{}, err
	}
	if err := finish(&d); err != nil {
		return Doc{}, err
	}
	if err := validate(d); err != nil {
		return Doc{}, err
	}
	return d, nil
}

// structural returns a line without a trailing CR, for matching syntax.
func structural(s string) string { return strings.TrimSuffix(s, "\r") }

type parser struct {
	lines []string
	i     int // index of the next line
	d     *Doc
	seen  map[string]bool
}

func (p *parser) errf(line int, format string, args ...any) error {
	return fmt.Errorf("%w: line %d: %s", ErrFormat, line+1, fmt.Sprintf(format, args...))
}

func (p *parser) line(i int) string { return structural(p.lines[i]) }

func (p *parser) skipBlank() {
	for p.i < len(p.lines) && strings.TrimSpace(p.line(p.i)) == "" {
		p.i++
	}
}

// atFence reports whether the next non-blank line opens a tilde fence.
func (p *parser) atFence() bool {
	j := p.i
	for j < len(p.lines) && strings.TrimSpace(p.line(j)) == "" {
		j++
	}
	if j >= len(p.lines) {
		return false
	}
	l := p.line(j)
	return len(l) >= 3 && strings.Trim(l, "~") == ""
}

// fenced reads a fenced block starting at the next non-blank line and
// returns its exact body.
func (p *parser) fenced() (string, error) {
	p.skipBlank()
	if p.i >= len(p.lines) {
		return "", p.errf(p.i-1, "expected a ~~~ fenced block")
	}
	open := p.line(p.i)
	if len(open) < 3 || strings.Trim(open, "~") != "" {
		return "", p.errf(p.i, "expected a ~~~ fenced block")
	}
	start := p.i + 1
	for j := start; j < len(p.lines); j++ {
		if p.line(j) == open {
			p.i = j + 1
			return strings.Join(p.lines[start:j], "\n"), nil
		}
	}
	return "", p.errf(p.i, "fenced block is not closed")
}

// plain reads text up to the next line stop accepts, without the blank
// lines around it and the CR of CRLF line ends. The earlier version wrote
// its sections so; text of it must be valid UTF-8.
func (p *parser) plain(stop func(string) bool) (string, error) {
	start := p.i
	for p.i < len(p.lines) && !stop(p.line(p.i)) {
		p.i++
	}
	out := make([]string, 0, p.i-start)
	for _, l := range p.lines[start:p.i] {
		out = append(out, structural(l))
	}
	s := strings.Trim(strings.Join(out, "\n"), "\n")
	if strings.TrimSpace(s) == "" {
		s = ""
	}
	if !utf8.ValidString(s) {
		return "", p.errf(start, "the text is not valid UTF-8")
	}
	return s, nil
}

// headingOf splits "## Title" into its level (1-4) and title; 0 when the
// line is no heading.
func headingOf(line string) (int, string) {
	n := 0
	for n < len(line) && n < 5 && line[n] == '#' {
		n++
	}
	if n == 0 || n > 4 || len(line) <= n || line[n] != ' ' {
		return 0, ""
	}
	return n, strings.TrimSpace(line[n+1:])
}

// part is a heading the body parser knows.
type part int

const (
	partNone part = iota
	partPrompt
	partLog
	partReports
	partSection
)

// sectionTitles maps a heading's title (lower case, without a trailing
// colon) to its section, in this app's words and the earlier version's.
var sectionTitles = map[string]task.SectionKind{
	"command": task.SectionCommand, "command template": task.SectionCommand, "command text": task.SectionCommand,
	"injected command": task.SectionCommand,
	"questions":        task.SectionQuestions, "planner questions": task.SectionQuestions, "open questions": task.SectionQuestions,
	"answers": task.SectionAnswers, "user answers": task.SectionAnswers, "answers from the user": task.SectionAnswers,
	"injected prompts": task.SectionInjectedPrompt, "injected prompt": task.SectionInjectedPrompt, "injections": task.SectionInjectedPrompt,
	"human review": task.SectionHumanReview,
}

// reportTitles are the report headings ("### Planner report"; the earlier
// version may write them at level 2 too).
var reportTitles = map[string]task.SectionKind{
	"planner report": task.SectionPlannerReport, "plan": task.SectionPlannerReport,
	"final plan": task.SectionFinalPlan, "refined plan": task.SectionFinalPlan, "refinement report": task.SectionFinalPlan,
	"planner refinement report": task.SectionFinalPlan, "refinement": task.SectionFinalPlan,
	"developer report": task.SectionDeveloperReport,
	"observer report":  task.SectionObserverReport,
	"reviewer report":  task.SectionReviewerReport, "review report": task.SectionReviewerReport,
}

// reportRole is the role that writes each report.
var reportRole = map[task.SectionKind]task.Role{
	task.SectionPlannerReport: task.RolePlanner, task.SectionFinalPlan: task.RoleRefinement,
	task.SectionDeveloperReport: task.RoleDeveloper, task.SectionObserverReport: task.RoleObserver,
	task.SectionReviewerReport: task.RoleReviewer,
}

// classify names a heading line: what it opens, and its section kind.
func classify(line string) (part, task.SectionKind, int, string) {
	lvl, title := headingOf(line)
	if lvl < 2 || lvl > 3 {
		return partNone, "", lvl, title
	}
	t := strings.ToLower(strings.TrimSuffix(title, ":"))
	if k, ok := reportTitles[t]; ok {
		return partSection, k, lvl, title
	}
	if lvl == 3 {
		return partNone, "", lvl, title
	}
	switch t {
	case "prompt", "task prompt", "original prompt":
		return partPrompt, "", lvl, title
	case "log", "execution log", "raw log":
		return partLog, "", lvl, title
	case "reports":
		return partReports, "", lvl, title
	}
	if k, ok := sectionTitles[t]; ok {
		return partSection, k, lvl, title
	}
	return partNone, "", lvl, title
}

// known reports whether line is a heading the body parser knows.
func known(line string) bool {
	pt, _, _, _ := classify(line)
	return pt != partNone
}

// boundary ends plain text outside the prompt: a known heading or any
// other "## " heading (an unknown section).
func boundary(line string) bool {
	lvl, _ := headingOf(line)
	return known(line) || lvl == 2
}

var roundRe = regexp.MustCompile(`(?i)^round\s+(\d{1,6})$`)

func (p *parser) body() error {
	p.seen = map[string]bool{}
	started := false
	for p.skipBlank(); p.i < len(p.lines); p.skipBlank() {
		at := p.i
		line := p.line(at)
		pt, kind, lvl, title := classify(line)
		if lvl == 1 && !started {
			p.i++ // "# Title", for people
			continue
		}
		started = true
		switch pt {
		case partPrompt, partLog:
			key := strings.ToLower(title)
			if pt == partLog {
				key = "log"
			} else {
				key = "prompt"
			}
			if p.seen[key] {
				return p.errf(at, "section %q appears twice", title)
			}
			p.seen[key] = true
			p.i++
			var err error
			if pt == partPrompt {
				err = p.prompt()
			} else {
				err = p.log()
			}
			if err != nil {
				return err
			}
		case partReports:
			p.i++
		case partSection:
			p.i++
			if err := p.section(kind); err != nil {
				return err
			}
		default:
			if lvl == 2 || lvl == 3 {
				if err := p.unknownSection(at, line); err != nil {
					return err
				}
				continue
			}
			return p.errf(at, "unexpected line %q", clip(line))
		}
	}
	if !p.seen["prompt"] {
		return fmt.Errorf("%w: no ## Prompt section", ErrFormat)
	}
	return nil
}

func (p *parser) prompt() error {
	if p.atFence() {
		var err error
		p.d.Task.Prompt, err = p.fenced()
		return err
	}
	p.d.Format = FormatEarlier
	// In plain text only the headings of the format end the prompt: a
	// prompt may hold its own markdown headings.
	s, err := p.plain(known)
	p.d.Task.Prompt = s
	return err
}

// section reads one section's entries: "#### key=value" entries with
// fenced bodies (this app), "#### Round N" entries or plain text (the
// earlier version), or a bare fenced block.
func (p *parser) section(kind task.SectionKind) error {
	role := reportRole[kind]
	add := func(s task.Section) {
		s.Kind = kind
		if s.Role == "" && role != "" && p.d.Format == FormatEarlier {
			s.Role = role
		}
		p.d.Sections = append(p.d.Sections, s)
	}
	for p.skipBlank(); p.i < len(p.lines); p.skipBlank() {
		at := p.i
		line := p.line(at)
		lvl, title := headingOf(line)
		switch {
		case lvl == 4 && strings.Contains(title, "="):
			sec, err := parseEntry(title)
			if err != nil {
				return fmt.Errorf("%w: line %d: %w", ErrFormat, at+1, err)
			}
			p.i++
			if sec.Body, err = p.fenced(); err != nil {
				return err
			}
			add(sec)
		case lvl == 4 && roundRe.MatchString(title) && role != "":
			round, _ := strconv.Atoi(roundRe.FindStringSubmatch(title)[1])
			p.i++
			if err := p.plainEntry(kind, round, add); err != nil {
				return err
			}
		case boundary(line):
			return nil
		case p.atFence():
			body, err := p.fenced()
			if err != nil {
				return err
			}
			add(task.Section{Body: body})
		default:
			if err := p.plainEntry(kind, 0, add); err != nil {
				return err
			}
		}
	}
	return nil
}

// plainEntry reads one entry of the earlier version: plain text up to the
// next heading, a report's round and verdict taken from it.
func (p *parser) plainEntry(kind task.SectionKind, round int, add func(task.Section)) error {
	p.d.Format = FormatEarlier
	body, err := p.plain(func(l string) bool {
		lvl, title := headingOf(l)
		return boundary(l) || (lvl == 4 && (roundRe.MatchString(title) || strings.Contains(title, "=")))
	})
	if err != nil || body == "" {
		return err
	}
	s := task.Section{Body: body}
	if _, isReport := reportRole[kind]; isReport {
		s.Iteration = 1
	}
	if kind == task.SectionObserverReport || kind == task.SectionReviewerReport {
		s.Round = max(round, 1)
		s.Verdict = string(task.ParseVerdict(body))
	}
	add(s)
	return nil
}

// unknownSection keeps a section this version does not know in Task.Extra
// under its heading.
func (p *parser) unknownSection(at int, line string) error {
	// Extra is JSON, which cannot hold invalid UTF-8: such a heading or body
	// would come back changed, so it is refused.
	if !utf8.ValidString(line) {
		return p.errf(at, "the heading is not valid UTF-8")
	}
	p.i++
	var body string
	var err error
	if p.atFence() {
		body, err = p.fenced()
	} else {
		body, err = p.plain(boundary)
	}
	if err != nil {
		return err
	}
	if !utf8.ValidString(body) {
		return p.errf(at, "the section %s is not valid UTF-8", clip(line))
	}
	if err := p.d.addExtra(line, body); err != nil {
		return p.errf(at, "section %s", err)
	}
	p.d.Notes = append(p.d.Notes, fmt.Sprintf("unknown section %q kept", line))
	return nil
}

// log reads the log: a fenced block of "<time> <level> <text>" lines (this
// app), or lines "- <time> [level] <text>" (the earlier version).
func (p *parser) log() error {
	start := p.i
	if !p.atFence() {
		return p.plainLog()
	}
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
		p.d.Log = append(p.d.Log, LogEntry{At: at.UTC(), Level: task.LogLevel(level), Text: text})
	}
	return nil
}

var logLevels = map[string]task.LogLevel{"debug": task.LevelDebug, "info": task.LevelInfo, "warn": task.LevelWarn,
	"warning": task.LevelWarn, "error": task.LevelError}

func (p *parser) plainLog() error {
	p.d.Format = FormatEarlier
	text, err := p.plain(boundary)
	if err != nil || text == "" {
		return err
	}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		line = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(line, "- "), "* "))
		if line == "" {
			continue
		}
		e := LogEntry{Level: task.LevelInfo, Text: line}
		if ts, rest, ok := strings.Cut(line, " "); ok {
			if at, err := time.Parse(time.RFC3339Nano, strings.Trim(ts, "[]")); err == nil {
				e.At, e.Text = at.UTC(), rest
				if w, r2, ok := strings.Cut(rest, " "); ok {
					if lv, known := logLevels[strings.ToLower(strings.Trim(w, "[]:"))]; known {
						e.Level, e.Text = lv, r2
					}
				}
			}
		}
		p.d.Log = append(p.d.Log, e)
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
		s = s[:60]
		for !utf8.ValidString(s) && len(s) > 0 {
			s = s[:len(s)-1]
		}
		return s + "…"
	}
	return s
}
