package mock

import (
	"errors"
	"reflect"
	"testing"

	"github.com/boof-runner/boof-runner/backend/task"
)

func TestParseScript(t *testing.T) {
	s, err := ParseScript("Task\n[[mock-verdicts observer=REJECT]]\n" +
		"[[mock-verdicts observer=CHANGES_REQUESTED,APPROVE reviewer=NONE]]\n" +
		"[[mock-transient developer=2]] [[mock-stall observer=1]]\n[[mock-questions planner=1]]\n" +
		"[[mock-verdicts reviewer=GARBLED\n]] an incomplete marker is ignored\n[[mock-delay developer=250]]\n[[mock-await reviewer=2]]\n[[mock-apiretry developer=3]]")
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Verdicts[task.RoleObserver]; !reflect.DeepEqual(got, []string{"CHANGES_REQUESTED", "APPROVE"}) {
		t.Fatalf("observer verdicts %v", got)
	}
	if s.Verdicts[task.RoleReviewer][0] != TokenNone {
		t.Fatalf("reviewer %v", s.Verdicts[task.RoleReviewer])
	}
	if s.Transient[task.RoleDeveloper] != 2 || s.Stall[task.RoleObserver] != 1 || s.Questions[task.RolePlanner] != 1 || s.DelayMs[task.RoleDeveloper] != 250 || s.AwaitInput[task.RoleReviewer] != 2 || s.APIRetry[task.RoleDeveloper] != 3 {
		t.Fatalf("script %+v", s)
	}
	for round, want := range []string{"CHANGES_REQUESTED", "CHANGES_REQUESTED", "APPROVE", "APPROVE"} {
		if got := s.Verdict(task.RoleObserver, round); got != want {
			t.Fatalf("round %d: %s, want %s", round, got, want)
		}
	}
	if got := s.Verdict(task.RoleDeveloper, 1); got != TokenApprove {
		t.Fatalf("default verdict %s", got)
	}
}

func TestParseScriptErrors(t *testing.T) {
	for name, prompt := range map[string]string{
		"unknown token": "[[mock-verdicts observer=APPROVE,MAYBE]]",
		"unknown role":  "[[mock-verdicts boss=APPROVE]]",
		"unknown kind":  "[[mock-explode developer=1]]",
		"bad count":     "[[mock-transient developer=x]]",
		"negative":      "[[mock-stall developer=-1]]",
		"no value":      "[[mock-questions planner]]",
		"lower case":    "[[mock-verdicts reviewer=approve]]",
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := ParseScript(prompt); !errors.Is(err, ErrBadMarker) {
				t.Fatalf("err = %v", err)
			}
		})
	}
	if s, err := ParseScript("no markers at all"); err != nil || len(s.Verdicts) != 0 {
		t.Fatalf("plain prompt: %+v %v", s, err)
	}
}

func TestVerdictTail(t *testing.T) {
	for tok, want := range map[string]string{
		TokenApprove: "VERDICT: APPROVE", TokenChangesRequested: "VERDICT: CHANGES_REQUESTED", TokenReject: "VERDICT: REJECT",
		TokenGarbled: "VERDICT: MAYBE", TokenConflict: "VERDICT: APPROVE\nVERDICT: REJECT", TokenNone: "No verdict this time.",
	} {
		got := verdictTail(tok)
		if len(got) < len(want) || got[len(got)-len(want):] != want {
			t.Fatalf("%s: %q", tok, got)
		}
	}
}

func FuzzParseScript(f *testing.F) {
	f.Add("[[mock-verdicts observer=CHANGES_REQUESTED,APPROVE reviewer=APPROVE]]")
	f.Add("[[mock-transient developer=1]]\n[[mock-stall developer=2]] [[mock-questions planner=1]]")
	f.Add("[[mock-await developer=1]] [[mock-delay developer=5]] [[mock-")
	f.Fuzz(func(t *testing.T, prompt string) {
		s, err := ParseScript(prompt)
		if err != nil {
			return
		}
		for role := range knownRoles {
			if tok := s.Verdict(role, 3); !knownTokens[tok] {
				t.Fatalf("verdict %q", tok)
			}
		}
	})
}

func TestParseHostileFloodLitter(t *testing.T) {
	s, err := ParseScript("[[mock-hostile developer=sigterm,setsid,daemon,storm,flood,ptyclose]]\n[[mock-flood developer=8]] [[mock-litter developer=2000]]")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{HostileSigterm, HostileSetsid, HostileDaemon, HostileStorm, HostileFlood, HostilePTYClose}
	if got := s.Hostile[task.RoleDeveloper]; !reflect.DeepEqual(got, want) {
		t.Fatalf("hostile %v", got)
	}
	if s.FloodMiB[task.RoleDeveloper] != 8 || s.Litter[task.RoleDeveloper] != 2000 {
		t.Fatalf("script %+v", s)
	}
	if _, err := ParseScript("[[mock-hostile developer=nuke]]"); !errors.Is(err, ErrBadMarker) {
		t.Fatalf("unknown behaviour: %v", err)
	}
}
