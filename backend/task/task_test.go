package task

import (
	"errors"
	"strings"
	"testing"
)

func TestNewTaskNormalize(t *testing.T) {
	ok := NewTask{Prompt: "do it", Title: "  T  ", Labels: []string{" a ", "a", "b"}}
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
		"label empty":       {Prompt: "p", Labels: []string{"a", " "}},
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

// TestOneLineFieldsRefuseWhatTheyCannotShow: titles and labels with
// invalid UTF-8, terminal escapes, C1 controls or direction overrides are
// refused with a reason naming the field, never rewritten.
func TestOneLineFieldsRefuseWhatTheyCannotShow(t *testing.T) {
	cases := map[string]struct {
		n    NewTask
		want string
	}{
		"title invalid UTF-8":   {NewTask{Prompt: "p", Title: "caf\xe9"}, "title is not valid UTF-8 text"},
		"title OSC escape":      {NewTask{Prompt: "p", Title: "x\x1b]0;owned\x07"}, "title contains the control character U+001B"},
		"title screen clear":    {NewTask{Prompt: "p", Title: "\x1b[2Jgone"}, "title contains the control character U+001B"},
		"title C1 CSI":          {NewTask{Prompt: "p", Title: "a\u009b31mred"}, "title contains the control character U+009B"},
		"title tab":             {NewTask{Prompt: "p", Title: "a\tb"}, "title contains the control character U+0009"},
		"title bidi override":   {NewTask{Prompt: "p", Title: "abc\u202edef"}, "title contains the control character U+202E"},
		"label invalid UTF-8":   {NewTask{Prompt: "p", Labels: []string{"ok", "bad\xff"}}, `label "bad\xff" is not valid UTF-8 text`},
		"label escape":          {NewTask{Prompt: "p", Labels: []string{"\x1b[31mred"}}, `label "\x1b[31mred" contains the control character U+001B`},
		"label C1":              {NewTask{Prompt: "p", Labels: []string{"a\u0085b"}}, "contains the control character U+0085"},
		"label comma":           {NewTask{Prompt: "p", Labels: []string{"a,b"}}, `label "a,b" contains a comma`},
		"base escape":           {NewTask{Prompt: "p", Base: "main\x1b"}, "is not a valid ref name"},
		"base invalid UTF-8":    {NewTask{Prompt: "p", Base: "ma\xffin"}, "is not a valid ref name"},
		"repo invalid UTF-8":    {NewTask{Prompt: "p", Repo: "/src/\xff"}, "repo path is not valid UTF-8 text"},
		"prompt NUL":            {NewTask{Prompt: "a\x00b"}, "prompt contains a NUL byte"},
		"prompt over the limit": {NewTask{Prompt: strings.Repeat("x", MaxPrompt+1)}, "prompt is larger than 16 MiB"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := c.n.Normalize()
			var ie *InvalidError
			if !errors.As(err, &ie) || !strings.Contains(ie.Reason, c.want) {
				t.Fatalf("got %v, want a reason containing %q", err, c.want)
			}
		})
	}
	ok := NewTask{Prompt: "a prompt may hold \x1b[31m escapes\tand tabs", Title: "Café ✓ 日本", Labels: []string{"ünï", "emoji-🙂"}}
	got, err := ok.Normalize()
	if err != nil || got.Title != ok.Title || got.Prompt != ok.Prompt || strings.Join(got.Labels, ",") != "ünï,emoji-🙂" {
		t.Fatalf("plain text refused or changed: %+v %v", got, err)
	}
}
