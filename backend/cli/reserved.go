package cli

import "runtime"

var goos = runtime.GOOS

// reserved names the subcommands whose shape is fixed but which later work
// builds; they print "not implemented yet" until then.
var reserved = map[string]string{
	"runner":    "run the queue headless: runner [--once | --until-idle]",
	"stop":      "stop a running task: stop ID",
	"inject":    "inject a prompt into a running task: inject ID TEXT",
	"answer":    "answer a parked task's questions: answer ID TEXT",
	"retry":     "re-queue a failed or stopped task: retry ID",
	"archive":   "archive a task: archive ID",
	"unarchive": "unarchive a task: unarchive ID",
	"delete":    "delete a task: delete ID",
	"export":    "export a task as markdown: export ID [-o FILE]",
	"import":    "import a task from markdown: import FILE",
	"diff":      "show a task's diff: diff ID [--stat]",
	"accept":    "accept a task's work: accept ID [--strategy merge|squash|rebase]",
	"reject":    "reject a task's work: reject ID",
	"doctor":    "check the agent tools",
	"settings":  "read or change settings: settings get [KEY] | settings set KEY VALUE",
}
