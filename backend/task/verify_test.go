package task

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckVerifyCommand(t *testing.T) {
	if got, err := CheckVerifyCommand("  go test ./...  "); err != nil || got != "go test ./..." {
		t.Fatalf("good command: %q %v", got, err)
	}
	for name, cmd := range map[string]string{
		"empty": "  ", "newline": "make\nrm -rf /", "nul": "go\x00test", "escape": "echo \x1b[2J",
		"bad utf-8": "echo \xff", "too long": strings.Repeat("x", MaxVerifyCommand+1),
	} {
		if _, err := CheckVerifyCommand(cmd); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestStepRolesKeepVerifyOutOfAgentRoles(t *testing.T) {
	if _, err := ParseRole("verify"); err == nil {
		t.Fatal("verify must not be an agent role (tool overrides, settings keys)")
	}
	if r, err := ParseStepRole("verify"); err != nil || r != RoleVerify {
		t.Fatalf("verify as a step role: %q %v", r, err)
	}
	if _, err := NormalizeTools(Tools{RoleVerify: {Tool: "mock"}}); err == nil {
		t.Fatal("a tool override for verify must be refused")
	}
	e := Execution{TaskID: "t", Role: RoleVerify}
	if err := e.Normalize(); err != nil {
		t.Fatalf("a verify execution: %v", err)
	}
	if err := (Section{Kind: SectionVerification, Role: RoleVerify, Verdict: string(VerifyFailed), Step: "verify-2"}).Validate(); err != nil {
		t.Fatalf("a verification section: %v", err)
	}
	if RoleVerify.IsAgent() || !RolePlannerAnswer.IsAgent() || !RoleReviewer.IsAgent() {
		t.Fatal("IsAgent")
	}
	for _, r := range Roles {
		if r == RoleVerify {
			t.Fatal("RoleVerify in Roles")
		}
	}
}

func TestVerifyRunTexts(t *testing.T) {
	v := VerifyRun{Command: "./check.sh", Outcome: VerifyFailed, ExitCode: 1, DurationMs: 1234, Tail: "FAIL: marker\n"}
	if got := v.FailureMessage(); got != "verification failed: ./check.sh exited 1" {
		t.Fatalf("failure message: %q", got)
	}
	if got := v.Summary(); got != "`./check.sh` failed (exit 1, 1.2 s)" {
		t.Fatalf("summary: %q", got)
	}
	body := v.Body()
	for _, want := range []string{"Command: `./check.sh`", "Exit status: 1", "Duration: 1.2 s", "FAIL: marker"} {
		if !strings.Contains(body, want) {
			t.Errorf("body lacks %q:\n%s", want, body)
		}
	}
	to := VerifyRun{Command: "sleep 99", Outcome: VerifyTimedOut, ExitCode: -1, DurationMs: 2000}
	if got := to.FailureMessage(); got != "verification failed: sleep 99 timed out after 2.0 s" {
		t.Fatalf("timeout: %q", got)
	}
	if !VerifySkipped.Passed() || VerifyFailed.Passed() || !VerifyPassed.Passed() {
		t.Fatal("Passed")
	}
}

func TestQueueMoves(t *testing.T) {
	for _, ok := range [][2]QueueState{{QueueQueued, QueueLanding}, {QueueLanding, QueueLanded}, {QueueLanding, QueueQueued},
		{QueueBlocked, QueueReturned}, {QueueReturned, QueueQueued}, {QueueLanded, QueueUndone}} {
		if err := CheckQueueMove(ok[0], ok[1]); err != nil {
			t.Errorf("%s → %s: %v", ok[0], ok[1], err)
		}
	}
	for _, bad := range [][2]QueueState{{QueueLanded, QueueLanding}, {QueueQueued, QueueLanded}, {QueueBlocked, QueueLanded}} {
		if err := CheckQueueMove(bad[0], bad[1]); !errors.Is(err, ErrIllegalTransition) {
			t.Errorf("%s → %s allowed", bad[0], bad[1])
		}
	}
	if !QueueBlocked.Active() || QueueLanded.Active() {
		t.Fatal("Active")
	}
}
