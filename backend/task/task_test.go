package task

import (
	"errors"
	"strings"
	"testing"
)

func TestNewTaskNormalize(t *testing.T) {
	ok := NewTask{Prompt: "do it", Title: "  T  ", Labels: []string{" a ", "a", "", "b"}}
	got, err := ok.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != "T" || got.Runs != 1 || strings.Join(got.Labels, "|") != "a|b" {
		t.Fatalf("normalized = %+v", got)
	}
	big := strings.Repeat("x", 5<<20)
	if got, err := (NewTask{Prompt: big}).Normalize(); err != nil || len(got.Prompt) != len(big) {
		t.Fatalf("5 MB prompt: %v", err)
	}
	bad := map[string]NewTask{
		"empty prompt":      {Prompt: " \n\t"},
		"runs negative":     {Prompt: "p", Runs: -1},
		"runs too many":     {Prompt: "p", Runs: MaxRuns + 1},
		"priority overflow": {Prompt: "p", Priority: MaxPriority + 1},
		"label comma":       {Prompt: "p", Labels: []string{"a,b"}},
		"label newline":     {Prompt: "p", Labels: []string{"a\nb"}},
		"base dash":         {Prompt: "p", Base: "-rf"},
		"base space":        {Prompt: "p", Base: "a b"},
		"title newline":     {Prompt: "p", Title: "a\nb"},
	}
	for name, n := range bad {
		t.Run(name, func(t *testing.T) {
			if _, err := n.Normalize(); !errors.Is(err, ErrInvalid) {
				t.Fatalf("want ErrInvalid, got %v", err)
			}
		})
	}
}

func TestDisplayTitle(t *testing.T) {
	if got := (Task{Title: "x", Prompt: "y"}).DisplayTitle(); got != "x" {
		t.Fatal(got)
	}
	long := strings.Repeat("é", 100)
	got := (Task{Prompt: "\n" + long + "\nsecond"}).DisplayTitle()
	if got != strings.Repeat("é", 80)+"…" {
		t.Fatalf("got %q", got)
	}
}
