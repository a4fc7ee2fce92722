package cli

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/schedule"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/usererr"
)

// atLayouts are the forms `add --at` reads, in the zone of --tz (default
// the machine's local zone) unless the value names its own offset.
var atLayouts = []string{"2006-01-02 15:04", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02T15:04:05", "2006-01-02"}

// parseAt reads a not-before time. It returns a NotTime *usererr.Edge
// for a value in none of the forms.
func parseAt(v, tz string) (time.Time, error) {
	v = strings.TrimSpace(v)
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t, nil
	}
	loc := time.Local
	if tz != "" {
		l, err := schedule.Location(tz)
		if err != nil {
			return time.Time{}, err
		}
		loc = l
	}
	for _, l := range atLayouts {
		if t, err := time.ParseInLocation(l, v, loc); err == nil {
			return t, nil
		}
	}
	return time.Time{}, &usererr.Edge{Kind: usererr.NotTime, Name: "--at", Value: v}
}

// atText is a stored not-before time in the machine's zone, to the minute,
// or with the seconds (and their fraction) when it has them, and with the
// zone's name when zone is set.
func atText(t time.Time, zone bool) string {
	layout := "2006-01-02 15:04"
	if t.Second() != 0 || t.Nanosecond() != 0 {
		layout += ":05.999999999"
	}
	if zone {
		layout += " MST"
	}
	return t.Local().Format(layout)
}

// addSchedule stores n as the template of a recurring task.
func addSchedule(ctx context.Context, c *call, n task.NewTask, every, tz, name string) error {
	sc := task.Schedule{Name: name, Cron: every, TZ: tz, Template: n}
	if _, err := schedule.Parse(every, tz); err != nil {
		return err // checked before touching the data root
	}
	s, paths, err := c.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	sc, err = host.NewServices(host.Options{Paths: paths, Store: s}).Intake.Schedule(ctx, sc, 0)
	if err != nil {
		return err
	}
	fmt.Fprintln(c.io.Stdout, sc.ID)
	fmt.Fprintf(c.io.Stderr, "schedule %s: next fire %s\n", sc.ID, fireTime(sc.NextFire, sc.TZ))
	return nil
}

func fireTime(t *time.Time, tz string) string {
	if t == nil {
		return "-"
	}
	loc, err := schedule.Location(tz)
	if err != nil {
		loc = time.UTC
	}
	return t.In(loc).Format("2006-01-02 15:04 MST")
}

func runSchedules(ctx context.Context, c *call) error {
	fs := c.newFlags()
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	verb := "list"
	if len(pos) > 0 {
		verb = pos[0]
	}
	need := map[string]int{"list": 1, "pause": 2, "resume": 2, "delete": 2, "log": 2}
	if want, ok := need[verb]; !ok || len(pos) > want || (want == 2 && len(pos) != 2) {
		return usagef("expected: schedules [list] | schedules pause|resume|delete|log ID")
	}
	open := c.openStore
	if verb == "list" || verb == "log" {
		open = c.openStoreRead
	}
	s, _, err := open(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	now := time.Now()
	switch verb {
	case "pause", "resume":
		sc, err := schedule.SetPaused(ctx, s, pos[1], verb == "pause", now)
		if err != nil {
			return err
		}
		if sc.Paused {
			fmt.Fprintf(c.io.Stdout, "schedule %s paused\n", sc.ID)
		} else {
			fmt.Fprintf(c.io.Stdout, "schedule %s resumed: next fire %s\n", sc.ID, fireTime(sc.NextFire, sc.TZ))
		}
		return nil
	case "delete":
		if err := schedule.Delete(ctx, s, pos[1]); err != nil {
			return err
		}
		fmt.Fprintf(c.io.Stdout, "schedule %s deleted (the tasks it queued are kept)\n", pos[1])
		return nil
	case "log":
		if _, err := s.GetSchedule(ctx, pos[1]); err != nil {
			return err
		}
		runs, err := s.ScheduleRuns(ctx, pos[1], 0)
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(c.io.Stdout, runs)
		}
		tw := tabwriter.NewWriter(c.io.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "DUE\tOUTCOME\tTASK\tNOTE")
		for _, r := range runs {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Due.Local().Format("2006-01-02 15:04"), r.Outcome, dash(r.TaskID), safeLine(r.Note))
		}
		return tw.Flush()
	}
	all, err := s.ListSchedules(ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(c.io.Stdout, all)
	}
	tw := tabwriter.NewWriter(c.io.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tCRON\tTZ\tNEXT FIRE\tSTATE\tNAME")
	for _, sc := range all {
		state := "active"
		if sc.Paused {
			state = "paused"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", sc.ID, safeLine(sc.Cron), sc.TZ, fireTime(sc.NextFire, sc.TZ), state, safeLine(sc.DisplayName()))
	}
	return tw.Flush()
}

func runLimits(ctx context.Context, c *call) error {
	fs := c.newFlags()
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if len(pos) != 0 && !(len(pos) == 2 && pos[0] == "resume") {
		return usagef("expected: limits | limits resume TOOL")
	}
	open := c.openStoreRead
	if len(pos) == 2 {
		open = c.openStore
	}
	s, paths, err := open(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	now := time.Now()
	if len(pos) == 2 {
		if !slices.Contains(host.ToolNames(), pos[1]) {
			return &usererr.Edge{Kind: usererr.UnknownTool, Value: pos[1]}
		}
		p, err := s.ResumeTool(ctx, pos[1], now)
		if err != nil {
			return err
		}
		fmt.Fprintf(c.io.Stdout, "%s resumed early (it was paused until %s); a running runner picks its tasks up at its next look\n",
			safeLine(p.Tool), p.Until.Local().Format("2006-01-02 15:04"))
		return nil
	}
	ps, err := s.ToolPauses(ctx, now)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(c.io.Stdout, ps)
	}
	if len(ps) == 0 {
		fmt.Fprintln(c.io.Stdout, "no tool is paused")
	}
	for _, p := range ps {
		line := p.Describe(now, time.Local)
		if p.Warning != "" {
			line += "; " + p.Warning
		}
		fmt.Fprintln(c.io.Stdout, safeLine(line))
	}
	// What a task without its own --on-limit does (a broken settings file
	// is reported by the commands that use it; here it means the default).
	set, _ := host.SettingsFile(paths).Load()
	if set.EffectiveOnLimit(task.OnLimitDefault) == task.OnLimitSwitch {
		order := "none: they wait"
		if len(set.Limits.SwitchOrder) > 0 {
			order = strings.Join(set.Limits.SwitchOrder, ", ")
		}
		fmt.Fprintf(c.io.Stdout, "on a usage limit, tasks switch to the next installed tool with a handoff (settings limits.onLimit; order, settings limits.switchOrder: %s)\n", safeLine(order))
	} else {
		fmt.Fprintln(c.io.Stdout, "on a usage limit, tasks wait for the reset (settings limits.onLimit)")
	}
	return nil
}
