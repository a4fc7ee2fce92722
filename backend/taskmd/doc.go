// Package taskmd writes a task as one markdown file (YAML frontmatter with the
// task fields, then named sections) and parses such a file back. It does no
// I/O beyond the reader and writer it is given.
//
// The format, in order:
//
//	---
//	key: value            one line per task field; strings are JSON-quoted,
//	...                   lists and maps are JSON (valid YAML flow style)
//	---
//	# Title               for people; ignored on import
//	## Prompt             one fenced block
//	## Command            entries (see below), one per kind and order kept
//	## Questions
//	## Answers
//	## Reports
//	### Planner report
//	### Final plan
//	### Developer report
//	### Observer report  one entry per round, with its verdict
//	### Reviewer report  one entry per round, with its verdict
//	## Injected prompts   with the step each was applied to
//	## Human review
//	## Log                one fenced block, one "<time> <level> <text>" line each
//
// An entry is a "#### key=value ..." line (iteration, round, role, verdict,
// step, at) followed by a block fenced with three or more tildes, longer than
// any tilde run that starts a line of the body, so bodies may hold any
// markdown, headings included, and come back byte for byte.
package taskmd

import (
	"errors"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

// ErrFormat is matched (errors.Is) by every parse error.
var ErrFormat = errors.New("invalid task markdown")

// MaxSize is the largest file Parse accepts, in bytes.
const MaxSize = 64 << 20

// LogEntry is one line of the execution log.
type LogEntry struct {
	At    time.Time
	Level task.LogLevel
	Text  string
}

// Doc is one task as exported: its fields, its body sections (prompt
// sections excluded: the prompt is Task.Prompt), its log and the names of its
// attachments. Attachment files are not carried by the markdown.
type Doc struct {
	Task        task.Task
	Sections    []task.Section
	Log         []LogEntry
	Attachments []string
	// Format is the format the file was in (Parse sets it; Write ignores it).
	Format Format
	// Notes say what Parse did that the user should hear about: unknown
	// keys and sections kept, a status mapped. Write ignores them.
	Notes []string

	prevWord string // the file's prev_status, settled by finish
}

// Format is a task file's format.
type Format string

// The formats Parse reads.
const (
	// FormatBoof is this app's export: fenced sections, "#### key=value" entries.
	FormatBoof Format = "boof-runner"
	// FormatEarlier is the earlier TypeScript version's task file: plain-text
	// sections, "#### Round N" entries, a "- <time> <text>" log.
	FormatEarlier Format = "earlier version"
)

// heading is where one section kind goes in the document.
type heading struct {
	kind  task.SectionKind
	level int
	title string
}

// headings lists the body sections in document order. Report kinds sit
// under "## Reports".
var headings = []heading{
	{task.SectionCommand, 2, "Command"},
	{task.SectionQuestions, 2, "Questions"},
	{task.SectionAnswers, 2, "Answers"},
	{task.SectionPlannerReport, 3, "Planner report"},
	{task.SectionFinalPlan, 3, "Final plan"},
	{task.SectionDeveloperReport, 3, "Developer report"},
	{task.SectionObserverReport, 3, "Observer report"},
	{task.SectionReviewerReport, 3, "Reviewer report"},
	{task.SectionInjectedPrompt, 2, "Injected prompts"},
	{task.SectionHumanReview, 2, "Human review"},
}

const reportsTitle = "Reports"
