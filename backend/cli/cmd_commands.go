package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// runCommands manages command templates: `commands list [--json]`,
// `commands show NAME`, `commands add NAME FILE|- [--replace]`,
// `commands rm NAME`. A task copies a template's text when it is added, so
// changing or removing a template changes no task.
func runCommands(ctx context.Context, c *call) error {
	fs := c.newFlags()
	asJSON := fs.Bool("json", false, "list: print JSON")
	replace := fs.Bool("replace", false, "add: replace the text of an existing template")
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("expected list, show NAME, add NAME FILE|- or rm NAME")
	}
	want := map[string]int{"list": 1, "show": 2, "add": 3, "rm": 2}
	n, ok := want[pos[0]]
	if !ok {
		return usagef("unknown subcommand %q: expected list, show, add or rm", pos[0])
	}
	if len(pos) != n {
		return usagef("%s takes %d argument(s)", pos[0], n-1)
	}
	var text string
	if pos[0] == "add" {
		if !task.ValidCommandName(pos[1]) {
			return &task.InvalidError{Reason: fmt.Sprintf("command name %q must be 1-64 letters, digits, '-', '_' or '.'", pos[1])}
		}
		if text, err = c.readText(pos[2], store.MaxCommandText); err != nil {
			return err
		}
	}
	open := c.openStore
	if pos[0] == "list" || pos[0] == "show" {
		open = c.openStoreRead
	}
	s, _, err := open(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	w := c.io.Stdout
	switch pos[0] {
	case "list":
		cs, err := s.ListCommands(ctx)
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(w, cs)
		}
		for _, cmd := range cs {
			first, _, _ := strings.Cut(strings.TrimSpace(cmd.Text), "\n")
			if r := []rune(first); len(r) > 70 {
				first = string(r[:70]) + "…"
			}
			fmt.Fprintf(w, "%-20s %s\n", safeLine(cmd.Name), safeLine(first))
		}
		return nil
	case "show":
		cmd, err := s.GetCommand(ctx, pos[1])
		if err != nil {
			return err
		}
		_, err = fmt.Fprint(w, ensureNewline(cmd.Text))
		return err
	case "add":
		if _, err := s.GetCommand(ctx, pos[1]); err == nil && !*replace {
			return fmt.Errorf("a command named %q already exists; use --replace to change its text (tasks added with it keep their copy)", pos[1])
		} else if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		if _, err := s.SaveCommand(ctx, pos[1], text); err != nil {
			return err
		}
		fmt.Fprintln(w, pos[1])
		return nil
	}
	if err := s.DeleteCommand(ctx, pos[1]); err != nil {
		return err
	}
	fmt.Fprintf(w, "removed %s (tasks added with it keep their copy)\n", pos[1])
	return nil
}

// readText reads a user's text from a file or, for "-", stdin: at most
// limit bytes of valid UTF-8.
func (c *call) readText(name string, limit int) (string, error) {
	r := c.io.Stdin
	label := "stdin"
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return "", &task.InvalidError{Reason: fmt.Sprintf("cannot read %s: %s", name, pathProblem(err))}
		}
		defer f.Close()
		r, label = f, name
	}
	if r == nil {
		return "", &task.InvalidError{Reason: "nothing to read on stdin"}
	}
	b, err := io.ReadAll(io.LimitReader(r, int64(limit)+1))
	if err != nil {
		return "", &task.InvalidError{Reason: fmt.Sprintf("cannot read %s: %s", label, pathProblem(err))}
	}
	if len(b) > limit {
		return "", &task.InvalidError{Reason: fmt.Sprintf("%s is larger than %d bytes", label, limit)}
	}
	if !utf8.Valid(b) {
		return "", &task.InvalidError{Reason: fmt.Sprintf("%s is not valid UTF-8 text", label)}
	}
	return string(b), nil
}

// pathProblem says in a few words what went wrong opening or reading a path.
func pathProblem(err error) string {
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "it does not exist"
	case errors.Is(err, os.ErrPermission):
		return "permission denied"
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

func ensureNewline(s string) string {
	if strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}
