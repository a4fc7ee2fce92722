package cli

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/usererr"
	"github.com/boof-runner/boof-runner/backend/verify"
)

// runDoctor checks every agent tool in parallel (within 20 s): installed,
// version, authenticated (a smoke prompt answered), reachable, or the error.
// It exits 1 when no tool a role uses is healthy.
func runDoctor(ctx context.Context, c *call) error {
	fs := c.newFlags()
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected argument %q", pos[0])
	}
	st, paths, err := c.openStore(ctx)
	if err != nil {
		return err
	}
	st.Close()
	set, lerr := host.SettingsFile(paths).Load()
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find own executable for the mock agent: %w", err)
	}
	procs := proc.NewRunner(proc.RunnerOptions{Logger: slog.New(slog.NewTextHandler(c.io.Stderr, &slog.HandlerOptions{Level: slog.LevelError})), NoSubreaper: true})
	defer procs.Shutdown(time.Second)
	tools := host.Tools(set, procs, exe, paths).Tools()
	model := func(tool string) string {
		for _, r := range []settings.ToolRef{set.Roles.Developer, set.Roles.Planner, set.Roles.Reviewer} {
			if r.Tool == tool {
				return r.Model
			}
		}
		return ""
	}
	hs := agent.CheckHealth(ctx, tools, model, 20*time.Second)
	if *asJSON {
		return writeJSON(c.io.Stdout, hs)
	}
	if lerr != nil {
		msg, _ := usererr.Describe(lerr)
		fmt.Fprintf(c.io.Stdout, "settings: %s (using defaults)\n\n", safeLine(strings.TrimSuffix(msg, ".")))
	}
	tw := tabwriter.NewWriter(c.io.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TOOL\tINSTALLED\tVERSION\tAUTHENTICATED\tERROR")
	used := map[string]bool{}
	for _, r := range []settings.ToolRef{set.Roles.Planner, set.Roles.Refinement, set.Roles.Developer, set.Roles.Reviewer} {
		used[r.Tool] = true
	}
	if set.Roles.Observer != nil {
		used[set.Roles.Observer.Tool] = true
	}
	bad := 0
	for _, h := range hs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", safeLine(h.Tool), yesNo(h.Installed), safeLine(dash(h.Version)), yesNo(h.Authenticated), safeLine(oneLine(h.Error)))
		if used[h.Tool] && !h.Authenticated {
			bad++
		}
	}
	tw.Flush()
	fmt.Fprintf(c.io.Stdout, "\nroles use: %s\n", roleSummary(set))
	verifyDoctor(ctx, c, paths, set)
	if bad > 0 {
		return &usererr.Edge{Kind: usererr.ToolsNotReady, N: bad}
	}
	return nil
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func dash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func roleSummary(s settings.Settings) string {
	out := fmt.Sprintf("planner=%s refinement=%s developer=%s reviewer=%s", s.Roles.Planner.Tool, s.Roles.Refinement.Tool, s.Roles.Developer.Tool, s.Roles.Reviewer.Tool)
	if s.Roles.Observer != nil {
		out += " observer=" + s.Roles.Observer.Tool
	} else {
		out += " observer=(none)"
	}
	return out
}

// verifyDoctor says which verify command the working directory's tasks
// run, or suggests one from its files (never run until the user sets it).
func verifyDoctor(ctx context.Context, c *call, paths dataroot.Paths, set settings.Settings) {
	if set.WorkingDirectory == "" {
		return
	}
	top, err := gitx.New().TopLevel(ctx, set.WorkingDirectory)
	if err != nil {
		return
	}
	if st, err := store.Open(ctx, paths.Database(), store.Options{}); err == nil {
		rv, gerr := st.GetRepoVerify(ctx, top)
		st.Close()
		if gerr == nil {
			fmt.Fprintf(c.io.Stdout, "verify: %s (for %s)\n", safeLine(rv.Command), safeLine(top))
			return
		}
	}
	if set.Verify.Command != "" {
		fmt.Fprintf(c.io.Stdout, "verify: %s (settings verify.command)\n", safeLine(set.Verify.Command))
		return
	}
	sugg := verify.Suggest(top)
	if len(sugg) == 0 {
		fmt.Fprintln(c.io.Stdout, "verify: none set; tasks are judged by the reviewer alone")
		return
	}
	fmt.Fprintf(c.io.Stdout, "verify: none set; suggested (from %s): boof-runner verify set --repo %s '%s'\n", sugg[0].Because, safeLine(top), safeLine(sugg[0].Command))
}
