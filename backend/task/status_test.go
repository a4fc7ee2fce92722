package task

import (
	"errors"
	"testing"
)

// legal is written out independently of the transitions table so the test
// fails if the table drifts.
var legal = map[[2]Status]bool{
	{StatusDraft, StatusPending}: true, {StatusDraft, StatusArchived}: true,
	{StatusPending, StatusOngoing}: true, {StatusPending, StatusDraft}: true,
	{StatusOngoing, StatusActions}: true, {StatusOngoing, StatusDone}: true, {StatusOngoing, StatusFailed}: true,
	{StatusOngoing, StatusStopped}: true, {StatusOngoing, StatusPending}: true,
	{StatusActions, StatusPending}: true,
	{StatusDone, StatusArchived}:   true, {StatusDone, StatusAccepted}: true, {StatusDone, StatusRejected}: true, {StatusDone, StatusPending}: true,
	{StatusFailed, StatusPending}: true, {StatusFailed, StatusArchived}: true,
	{StatusStopped, StatusPending}: true, {StatusStopped, StatusArchived}: true,
	{StatusAccepted, StatusDone}: true, {StatusAccepted, StatusArchived}: true,
	{StatusRejected, StatusPending}: true, {StatusRejected, StatusArchived}: true,
	{StatusArchived, StatusDraft}: true, {StatusArchived, StatusDone}: true, {StatusArchived, StatusFailed}: true,
	{StatusArchived, StatusStopped}: true, {StatusArchived, StatusAccepted}: true, {StatusArchived, StatusRejected}: true,
}

func TestTransitionTableEveryPair(t *testing.T) {
	for _, from := range Statuses {
		for _, to := range Statuses {
			want := legal[[2]Status{from, to}]
			t.Run(string(from)+"→"+string(to), func(t *testing.T) {
				err := CheckTransition(from, to)
				if want && err != nil {
					t.Fatalf("want legal, got %v", err)
				}
				if !want {
					var te *TransitionError
					if !errors.As(err, &te) || te.From != from || te.To != to || !errors.Is(err, ErrIllegalTransition) {
						t.Fatalf("want *TransitionError{%s,%s}, got %v", from, to, err)
					}
				}
			})
		}
	}
}

func TestCheckUnarchive(t *testing.T) {
	if err := CheckUnarchive(StatusArchived, StatusDone); err != nil {
		t.Fatal(err)
	}
	for _, c := range [][2]Status{{StatusDone, StatusDone}, {StatusArchived, StatusOngoing}, {StatusArchived, StatusPending}} {
		if err := CheckUnarchive(c[0], c[1]); !errors.Is(err, ErrIllegalTransition) {
			t.Errorf("unarchive %v: want illegal, got %v", c, err)
		}
	}
}

func TestParseStatus(t *testing.T) {
	for _, s := range Statuses {
		if got, err := ParseStatus(string(s)); err != nil || got != s {
			t.Errorf("ParseStatus(%q) = %q, %v", s, got, err)
		}
	}
	for _, bad := range []string{"", "Done", "running", "done "} {
		if _, err := ParseStatus(bad); !errors.Is(err, ErrUnknownStatus) {
			t.Errorf("ParseStatus(%q): want ErrUnknownStatus, got %v", bad, err)
		}
	}
}
