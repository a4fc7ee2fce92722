package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/budget"
	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/settings"
)

// runBudget prints spend against each budget (`budget [--json]`) or
// re-queues the tasks a budget stopped that no cap holds any more
// (`budget retry`).
func runBudget(ctx context.Context, c *call) error {
	fs := c.newFlags()
	asJSON := fs.Bool("json", false, "print the report as JSON")
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if len(pos) > 1 || (len(pos) == 1 && pos[0] != "retry") {
		return usagef("expected no argument, or retry")
	}
	open := c.openStoreRead
	if len(pos) == 1 {
		open = c.openStore
	}
	st, paths, err := open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	set, err := host.SettingsFile(paths).Load()
	if err != nil {
		return err
	}
	now := time.Now()
	if len(pos) == 1 {
		retried, held, err := budget.RetryReleased(ctx, st, set, now, time.Local)
		for _, s := range retried {
			fmt.Fprintf(c.io.Stdout, "re-queued %s  %s\n", s.ID, safeLine(s.Title))
		}
		for _, s := range held {
			fmt.Fprintf(c.io.Stdout, "still held %s  %s: %s\n", s.ID, safeLine(s.Title), safeLine(s.HeldBy))
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(c.io.Stdout, "%d task(s) re-queued, %d still held by a cap\n", len(retried), len(held))
		return nil
	}
	rep, err := budget.Snapshot(ctx, st, set, now, time.Local)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(c.io.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	printBudget(c.io.Stdout, rep)
	return nil
}

// printBudget prints a budget report for a terminal.
func printBudget(w io.Writer, rep budget.Report) {
	if len(rep.Lines) == 0 {
		fmt.Fprintln(w, `No budgets are set. Set one with: boof-runner settings set budgets.daily '{"usd": 5, "mode": "cap"}'`)
	} else {
		fmt.Fprintf(w, "Budgets (days and months start at midnight, %s):\n", rep.Location)
	}
	for _, l := range rep.Lines {
		var parts []string
		if l.LimitUSD != nil {
			parts = append(parts, budget.USD(l.SpentUSD)+" of "+budget.USD(*l.LimitUSD))
		}
		if l.LimitTokens != nil {
			parts = append(parts, budget.Thousands(l.SpentTokens)+" of "+budget.Tokens(*l.LimitTokens))
		}
		line := fmt.Sprintf("  %-16s %-4s  %s  (%.0f %%)", l.Label(), l.Mode, strings.Join(parts, ", "), l.Percent)
		if l.TaskID != "" {
			line += "  top task " + l.TaskID
		}
		switch {
		case l.Blocking:
			line += "  REACHED: the queue starts nothing it covers"
		case l.Reached:
			line += "  reached (warn only)"
		}
		if l.Resets != nil {
			line += "; resets " + l.Resets.In(time.Local).Format("2006-01-02 15:04")
		}
		if l.Over > 0 {
			line += fmt.Sprintf("; %d task(s) at or over it", l.Over)
		}
		fmt.Fprintln(w, line)
	}
	fmt.Fprintln(w, "Circuit breakers (per step): "+breakersText(rep.Breakers))
	if rep.Held > 0 {
		fmt.Fprintf(w, "%d pending task held back by a cap.\n", rep.Held)
	}
	if len(rep.Stopped) > 0 {
		fmt.Fprintln(w, "Stopped by a budget:")
		for _, s := range rep.Stopped {
			state := "retryable"
			if s.HeldBy != "" {
				state = "held: " + s.HeldBy
			}
			fmt.Fprintf(w, "  %s  %s  %s  (%s)\n", s.ID, safeLine(s.Title), safeLine(s.Reason), state)
		}
		if n := len(rep.Retryable()); n > 0 {
			fmt.Fprintf(w, "Run 'boof-runner budget retry' to re-queue the %d task(s) no cap holds.\n", n)
		}
	}
}

// breakersText describes the breakers in effect.
func breakersText(b settings.Breakers) string {
	part := func(name string, n int64, unit string) string {
		if n == 0 {
			return name + " off"
		}
		return name + " " + budget.Thousands(n) + unit
	}
	return strings.Join([]string{
		part("tool calls", int64(b.ToolCalls), ""),
		part("repeat failures", int64(b.RepeatFailures), ""),
		part("no progress", int64(b.NoProgress), ""),
		part("token velocity", b.TokensPerMinute, fmt.Sprintf(" tokens/min after %s", time.Duration(b.VelocityWindowMs)*time.Millisecond)),
	}, ", ")
}
