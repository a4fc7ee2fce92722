package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/userfile"
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
		if err := store.CheckCommandName(pos[1]); err != nil {
			return err
		}
		b, err := c.readNamed(ctx, pos[2], store.MaxCommandText, userfile.CommandFile, userfile.CommandText)
		if err != nil {
			return err
		}
		text = string(b)
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
		save := s.CreateCommand
		if *replace {
			save = s.SaveCommand
		}
		if _, err := save(ctx, pos[1], text); err != nil {
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

func ensureNewline(s string) string {
	if strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}
