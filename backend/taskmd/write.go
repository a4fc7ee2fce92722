package taskmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/boof-runner/boof-runner/backend/task"
)

// timeLayout is RFC 3339 in UTC with milliseconds, the store's precision.
const timeLayout = "2006-01-02T15:04:05.000Z07:00"

// Write renders d as markdown to w. It returns the first write error.
func Write(w io.Writer, d Doc) error {
	bw := bufio.NewWriter(w)
	writeFrontmatter(bw, d)
	fmt.Fprintf(bw, "\n# %s\n\n## Prompt\n\n", oneLine(d.Task.DisplayTitle()))
	writeFenced(bw, d.Task.Prompt)
	byKind := map[task.SectionKind][]task.Section{}
	for _, s := range d.Sections {
		if s.Kind != task.SectionPrompt {
			byKind[s.Kind] = append(byKind[s.Kind], s)
		}
	}
	reportsOpen := false
	for _, h := range headings {
		secs := byKind[h.kind]
		if len(secs) == 0 {
			continue
		}
		if h.level == 3 && !reportsOpen {
			fmt.Fprintf(bw, "\n## %s\n", reportsTitle)
			reportsOpen = true
		}
		fmt.Fprintf(bw, "\n%s %s\n", strings.Repeat("#", h.level), h.title)
		for _, s := range secs {
			fmt.Fprintf(bw, "\n#### %s\n\n", entryAttrs(s))
			writeFenced(bw, s.Body)
		}
	}
	if len(d.Log) > 0 {
		bw.WriteString("\n## Log\n\n~~~\n")
		for _, l := range d.Log {
			fmt.Fprintf(bw, "%s %s %s\n", l.At.UTC().Format(timeLayout), l.Level, logText(l.Text))
		}
		bw.WriteString("~~~\n")
	}
	return bw.Flush()
}

func writeFrontmatter(w *bufio.Writer, d Doc) {
	t := d.Task
	js := func(v any) string {
		b, _ := json.Marshal(v) // plain strings, slices and maps: cannot fail
		return yamlPrintable(string(b))
	}
	ts := func(p *time.Time) string {
		if p == nil {
			return "null"
		}
		return p.UTC().Format(timeLayout)
	}
	labels, questions, atts := t.Labels, t.Questions, d.Attachments
	if labels == nil {
		labels = []string{}
	}
	if questions == nil {
		questions = []string{}
	}
	if atts == nil {
		atts = []string{}
	}
	tools := t.Tools
	if tools == nil {
		tools = task.Tools{}
	}
	created, updated := t.CreatedAt, t.UpdatedAt
	w.WriteString("---\n")
	if task.ValidID(t.ID) {
		fmt.Fprintf(w, "id: %s\n", t.ID)
	} else {
		fmt.Fprintf(w, "id: %s\n", js(t.ID))
	}
	if t.OriginID != "" {
		fmt.Fprintf(w, "origin_id: %s\n", js(t.OriginID))
	}
	fmt.Fprintf(w, "title: %s\n", js(t.Title))
	fmt.Fprintf(w, "status: %s\n", t.Status)
	fmt.Fprintf(w, "prev_status: %s\n", js(string(t.PrevStatus)))
	fmt.Fprintf(w, "priority: %d\n", t.Priority)
	fmt.Fprintf(w, "skip: %t\n", t.Skip)
	fmt.Fprintf(w, "labels: %s\n", js(labels))
	fmt.Fprintf(w, "command: %s\n", js(t.Command))
	fmt.Fprintf(w, "runs: %d\n", t.Runs)
	fmt.Fprintf(w, "completed_runs: %d\n", t.CompletedRuns)
	fmt.Fprintf(w, "base: %s\n", js(t.Base))
	fmt.Fprintf(w, "repo: %s\n", js(t.Repo))
	fmt.Fprintf(w, "questions: %s\n", js(questions))
	fmt.Fprintf(w, "tools: %s\n", js(tools))
	fmt.Fprintf(w, "attachments: %s\n", js(atts))
	fmt.Fprintf(w, "usage: %s\n", js(t.Usage))
	fmt.Fprintf(w, "branch: %s\n", js(t.Branch))
	fmt.Fprintf(w, "base_sha: %s\n", js(t.BaseSHA))
	fmt.Fprintf(w, "head_sha: %s\n", js(t.HeadSHA))
	fmt.Fprintf(w, "worktree_path: %s\n", js(t.WorktreePath))
	fmt.Fprintf(w, "error: %s\n", js(t.Error))
	fmt.Fprintf(w, "created_at: %s\n", ts(&created))
	fmt.Fprintf(w, "updated_at: %s\n", ts(&updated))
	fmt.Fprintf(w, "started_at: %s\n", ts(t.StartedAt))
	fmt.Fprintf(w, "finished_at: %s\n", ts(t.FinishedAt))
	if len(t.Extra) > 0 {
		fmt.Fprintf(w, "extra: %s\n", compactJSON(t.Extra))
	}
	w.WriteString("---\n")
}

// compactJSON is raw JSON on one line (valid YAML flow style); what is not
// JSON is written as a string.
func compactJSON(raw []byte) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		out, _ := json.Marshal(string(raw))
		return yamlPrintable(string(out))
	}
	return yamlPrintable(b.String())
}

// yamlPrintable escapes, in JSON text, the characters YAML does not allow
// in a document (DEL, the C1 controls, U+FFFE and U+FFFF) and NEL (U+0085,
// which YAML reads as a line break) as \uXXXX, which both read back as the
// same character. JSON escapes the C0 controls itself, and such characters
// can only be inside its strings.
func yamlPrintable(js string) string {
	bad := func(r rune) bool {
		return r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == 0xfffe || r == 0xffff
	}
	if strings.IndexFunc(js, bad) < 0 {
		return js
	}
	var b strings.Builder
	for _, r := range js {
		if bad(r) {
			fmt.Fprintf(&b, `\u%04x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func entryAttrs(s task.Section) string {
	attrs := []string{"iteration=" + strconv.Itoa(s.Iteration), "round=" + strconv.Itoa(s.Round)}
	if s.Role != "" {
		attrs = append(attrs, "role="+string(s.Role))
	}
	if s.Verdict != "" {
		attrs = append(attrs, "verdict="+s.Verdict)
	}
	if s.Step != "" {
		attrs = append(attrs, "step="+s.Step)
	}
	if !s.CreatedAt.IsZero() {
		attrs = append(attrs, "at="+s.CreatedAt.UTC().Format(timeLayout))
	}
	return strings.Join(attrs, " ")
}

// fenceFor returns a tilde fence longer than any tilde run starting a line of body.
func fenceFor(body string) string {
	n := 3
	for _, line := range strings.Split(body, "\n") {
		run := len(line) - len(strings.TrimLeft(line, "~"))
		if run >= n {
			n = run + 1
		}
	}
	return strings.Repeat("~", n)
}

// writeFenced writes body between fences so that the lines between them,
// joined by "\n", are exactly body.
func writeFenced(w *bufio.Writer, body string) {
	f := fenceFor(body)
	w.WriteString(f + "\n" + body + "\n" + f + "\n")
}

// logText quotes log text that would not survive as one plain line.
func logText(s string) string {
	if s == "" || !utf8.ValidString(s) || strings.HasPrefix(s, `"`) || strings.TrimSpace(s) != s || strings.IndexFunc(s, unicode.IsControl) >= 0 || strings.HasPrefix(s, "~~~") {
		return strconv.Quote(s)
	}
	return s
}

func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
}
