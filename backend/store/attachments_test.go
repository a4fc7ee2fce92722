package store

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/task"
)

func TestAttachments(t *testing.T) {
	s, _ := openClock(t)
	ctx := context.Background()
	tk := mustCreate(t, s, task.NewTask{})
	a, err := s.AddAttachment(ctx, tk.ID, "spec v2.md", strings.NewReader("# spec"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(a.Path); err != nil || string(b) != "# spec" || a.Size != 6 || len(a.SHA256) != 64 {
		t.Fatalf("stored %+v: %q %v", a, b, err)
	}
	if _, err := s.AddAttachment(ctx, tk.ID, "spec v2.md", strings.NewReader("other"), 0); !errors.Is(err, ErrExists) {
		t.Fatalf("duplicate: %v", err)
	}
	if b, _ := os.ReadFile(a.Path); string(b) != "# spec" {
		t.Fatal("duplicate overwrote the file")
	}
	list, _ := s.Attachments(ctx, tk.ID)
	if len(list) != 1 || list[0].Name != "spec v2.md" || list[0].Path != a.Path {
		t.Fatalf("list = %+v", list)
	}
	if err := s.RemoveAttachment(ctx, tk.ID, "spec v2.md"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(a.Path); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("file not removed")
	}
	if err := s.RemoveAttachment(ctx, tk.ID, "spec v2.md"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("remove twice: %v", err)
	}
	if _, err := s.AddAttachment(ctx, "../../etc", "x", strings.NewReader("x"), 0); !errors.Is(err, ErrNotFound) {
		t.Fatalf("bad task id: %v", err)
	}
	for _, bad := range []string{"", " ", "a/b", `a\b`, "..", ".", "tab\there", "bell\a", "\xff", strings.Repeat("x", 256)} {
		if err := CheckAttachmentName(bad); !errors.Is(err, task.ErrInvalid) {
			t.Errorf("CheckAttachmentName(%q) = %v", bad, err)
		}
	}
	for _, ok := range []string{"a.txt", ".env", "résumé.pdf", "..hidden"} {
		if err := CheckAttachmentName(ok); err != nil {
			t.Errorf("CheckAttachmentName(%q) = %v", ok, err)
		}
	}
}

func TestCommands(t *testing.T) {
	s, _ := openClock(t)
	ctx := context.Background()
	if _, err := s.SaveCommand(ctx, "review", "Review carefully."); err != nil {
		t.Fatal(err)
	}
	c, err := s.SaveCommand(ctx, "review", "Review very carefully.")
	if err != nil || c.Text != "Review very carefully." || !c.UpdatedAt.After(c.CreatedAt) {
		t.Fatalf("update: %+v %v", c, err)
	}
	if _, err := s.SaveCommand(ctx, "bad name", "x"); !errors.Is(err, task.ErrInvalid) {
		t.Fatalf("bad name: %v", err)
	}
	if _, err := s.SaveCommand(ctx, "empty", "  "); !errors.Is(err, task.ErrInvalid) {
		t.Fatalf("empty text: %v", err)
	}
	list, _ := s.ListCommands(ctx)
	if len(list) != 1 {
		t.Fatalf("list = %+v", list)
	}
	if err := s.DeleteCommand(ctx, "review"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetCommand(ctx, "review"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("get deleted: %v", err)
	}
	if err := s.DeleteCommand(ctx, "review"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("delete twice: %v", err)
	}
}
