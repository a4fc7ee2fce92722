package taskmd

import (
	"context"
	"fmt"

	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// Load reads everything Write needs about task id from s. It returns an
// error wrapping store.ErrNotFound for a missing task.
func Load(ctx context.Context, s *store.Store, id string) (Doc, error) {
	t, err := s.GetTask(ctx, id)
	if err != nil {
		return Doc{}, err
	}
	secs, err := s.Sections(ctx, id)
	if err != nil {
		return Doc{}, err
	}
	d := Doc{Task: t}
	for _, sec := range secs {
		if sec.Kind != task.SectionPrompt {
			d.Sections = append(d.Sections, sec)
		}
	}
	var after int64
	for {
		page, err := s.Log(ctx, id, after, 10000)
		if err != nil {
			return Doc{}, err
		}
		for _, l := range page {
			d.Log = append(d.Log, LogEntry{At: l.At, Level: l.Level, Text: l.Text})
		}
		if len(page) < 10000 {
			break
		}
		after = page[len(page)-1].ID
	}
	atts, err := s.Attachments(ctx, id)
	if err != nil {
		return Doc{}, err
	}
	for _, a := range atts {
		d.Attachments = append(d.Attachments, a.Name)
	}
	return d, nil
}

// Import stores d as a new task (see store.ImportTask for the rules) and
// returns it. Attachment names in d are not restored: the markdown does not
// carry the files.
func Import(ctx context.Context, s *store.Store, d Doc) (task.Task, error) {
	in := store.Import{Task: d.Task, Sections: d.Sections}
	for _, l := range d.Log {
		in.Log = append(in.Log, task.LogLine{At: l.At, Level: l.Level, Text: l.Text})
	}
	t, err := s.ImportTask(ctx, in)
	if err != nil {
		return task.Task{}, fmt.Errorf("import: %w", err)
	}
	return t, nil
}
