package cli

import "runtime"

var goos = runtime.GOOS

// reserved names the subcommands whose shape is fixed but which later work
// builds; they print "not implemented yet" until then.
var reserved = map[string]string{
	"answer":    "answer a parked task's questions: answer ID TEXT",
	"retry":     "re-queue a failed or stopped task: retry ID",
	"archive":   "archive a task: archive ID",
	"unarchive": "unarchive a task: unarchive ID",
	"delete":    "delete a task: delete ID",
	"export":    "export a task as markdown: export ID [-o FILE]",
	"import":    "import a task from markdown: import FILE",
	"doctor":    "check the agent tools",
}
