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

// Options change how Import stores a document.
type Options struct {
	// Again imports a file whose task was imported before (the same origin
	// id) as another copy; without it such an import is refused.
	Again bool
	// Files are attachment files found for the document's attachment names.
	Files []store.NewFile
}

// Origin is the id a document's task had where it came from: its origin_id
// when it has one (it was imported before), else its id.
func (d Doc) Origin() string {
	if d.Task.OriginID != "" {
		return d.Task.OriginID
	}
	return d.Task.ID
}

// Import stores d as a new task with a fresh id (see store.ImportTask for
// the rules), its origin id kept, and returns it. It refuses, with a
// *store.DuplicateOriginError, a document whose origin another task already
// has, unless o.Again. Attachment names in d without a file in o.Files are
// not restored: the markdown does not carry the files.
func Import(ctx context.Context, s *store.Store, d Doc, o ...Options) (task.Task, error) {
	var opt Options
	if len(o) > 0 {
		opt = o[0]
	}
	t := d.Task
	t.OriginID = d.Origin()
	in := store.Import{Task: t, Sections: d.Sections, Files: opt.Files, Again: opt.Again}
	for _, l := range d.Log {
		in.Log = append(in.Log, task.LogLine{At: l.At, Level: l.Level, Text: l.Text})
	}
	out, err := s.ImportTask(ctx, in)
	if err != nil {
		return task.Task{}, fmt.Errorf("import: %w", err)
	}
	return out, nil
}
