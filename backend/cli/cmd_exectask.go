package cli

import (
	"context"
	"fmt"
	"net"
	"os"
	"strconv"

	"github.com/boof-runner/boof-runner/backend/executor/exectask"
	"github.com/boof-runner/boof-runner/backend/executor/wire"
)

// podIPEnv is set by the Job's downward API to the pod's IP: the control
// endpoint listens there.
const podIPEnv = "BOOF_POD_IP"

// runExecTask runs one task's pipeline as a cluster's pod does:
// `exec-task --in DIR --work DIR [--listen ADDR]`, or, in the init
// container that fetches a large base, `exec-task --fetch URL --to FILE`.
func runExecTask(ctx context.Context, c *call) error {
	fs := c.newFlags()
	in := fs.String("in", "", "folder holding task.json and base.bundle")
	work := fs.String("work", "", "empty folder for the repository and the data root")
	bundlePath := fs.String("bundle", "", "the base bundle (default DIR/base.bundle of --in)")
	listen := fs.String("listen", "", "control endpoint address (default $"+podIPEnv+":"+strconv.Itoa(wire.ControlPort)+" when set)")
	fetch := fs.String("fetch", "", "download this URL to --to and exit")
	to := fs.String("to", "", "file --fetch writes")
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected argument %q", pos[0])
	}
	if *fetch != "" {
		if *to == "" {
			return usagef("--fetch needs --to")
		}
		return exectask.Fetch(ctx, *fetch, *to)
	}
	if *in == "" || *work == "" {
		return usagef("--in and --work are required")
	}
	getenv := c.env.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if *listen == "" && getenv(podIPEnv) != "" {
		*listen = net.JoinHostPort(getenv(podIPEnv), strconv.Itoa(wire.ControlPort))
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find own executable for the mock agent: %w", err)
	}
	return exectask.Run(ctx, exectask.Options{In: *in, Work: *work, Bundle: *bundlePath, Exe: exe, Stdout: c.io.Stdout, Listen: *listen})
}
