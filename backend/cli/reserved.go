package cli

import "runtime"

var goos = runtime.GOOS

// reserved names the subcommands whose shape is fixed but which later work
// builds; they print "not implemented yet" until then.
var reserved = map[string]string{}
