package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// gateCase is one row of the review gate rules, played with mock verdicts.
type gateCase struct {
	name      string
	marker    string
	observer  bool
	gateOff   bool
	maxFix    int
	status    task.Status
	message   string
	observerV string // verdicts of the stored observer reports, in order
	reviewerV string
	devRounds int
	// quick rows also run without the slow tag.
	quick bool
}

var gateCases = []gateCase{
	{name: "observer approve, reviewer approve", marker: "observer=APPROVE reviewer=APPROVE", observer: true,
		status: task.StatusDone, observerV: "APPROVE", reviewerV: "APPROVE", devRounds: 1},
	{name: "observer changes then approve", quick: true, marker: "observer=CHANGES_REQUESTED,APPROVE reviewer=APPROVE", observer: true,
		status: task.StatusDone, observerV: "CHANGES_REQUESTED,APPROVE", reviewerV: "APPROVE", devRounds: 2},
	{name: "observer budget spent", marker: "observer=CHANGES_REQUESTED reviewer=APPROVE", observer: true,
		status: task.StatusFailed, message: "review not approved: observer CHANGES_REQUESTED",
		observerV: "CHANGES_REQUESTED,CHANGES_REQUESTED,CHANGES_REQUESTED", devRounds: 3},
	{name: "observer budget zero", marker: "observer=CHANGES_REQUESTED", observer: true, maxFix: -1,
		status: task.StatusFailed, message: "review not approved: observer CHANGES_REQUESTED",
		observerV: "CHANGES_REQUESTED", devRounds: 1},
	{name: "reviewer changes, observer rechecks, reviewer approves", marker: "observer=APPROVE reviewer=CHANGES_REQUESTED,APPROVE", observer: true,
		status: task.StatusDone, observerV: "APPROVE,APPROVE", reviewerV: "CHANGES_REQUESTED,APPROVE", devRounds: 2},
	{name: "reviewer changes without observer", marker: "reviewer=CHANGES_REQUESTED,APPROVE",
		status: task.StatusDone, reviewerV: "CHANGES_REQUESTED,APPROVE", devRounds: 2},
	{name: "reviewer budget spent", quick: true, marker: "reviewer=CHANGES_REQUESTED",
		status: task.StatusFailed, message: "review not approved: reviewer CHANGES_REQUESTED",
		reviewerV: "CHANGES_REQUESTED,CHANGES_REQUESTED,CHANGES_REQUESTED", devRounds: 3},
	{name: "observer budget shared across reviewer fixes", observer: true,
		marker: "observer=APPROVE,CHANGES_REQUESTED,CHANGES_REQUESTED,CHANGES_REQUESTED reviewer=CHANGES_REQUESTED",
		status: task.StatusFailed, message: "review not approved: observer CHANGES_REQUESTED",
		observerV: "APPROVE,CHANGES_REQUESTED,CHANGES_REQUESTED,CHANGES_REQUESTED", reviewerV: "CHANGES_REQUESTED", devRounds: 4},
	{name: "observer reject", marker: "observer=REJECT reviewer=APPROVE", observer: true,
		status: task.StatusFailed, message: "review not approved: observer REJECT", observerV: "REJECT", devRounds: 1},
	{name: "reviewer reject", marker: "observer=APPROVE reviewer=REJECT", observer: true,
		status: task.StatusFailed, message: "review not approved: reviewer REJECT", observerV: "APPROVE", reviewerV: "REJECT", devRounds: 1},
	{name: "reviewer missing verdict", marker: "reviewer=NONE",
		status: task.StatusFailed, message: "review not approved: reviewer INVALID", reviewerV: "INVALID", devRounds: 1},
	{name: "reviewer garbled verdict", marker: "reviewer=GARBLED",
		status: task.StatusFailed, message: "review not approved: reviewer INVALID", reviewerV: "INVALID", devRounds: 1},
	{name: "observer conflicting verdicts", marker: "observer=CONFLICT", observer: true,
		status: task.StatusFailed, message: "review not approved: observer INVALID", observerV: "INVALID", devRounds: 1},
	{name: "gate off records and never enforces", quick: true, marker: "observer=REJECT reviewer=CHANGES_REQUESTED", observer: true, gateOff: true,
		status: task.StatusDone, observerV: "REJECT", reviewerV: "CHANGES_REQUESTED", devRounds: 1},
	{name: "gate off invalid reviewer", marker: "reviewer=GARBLED", gateOff: true,
		status: task.StatusDone, reviewerV: "INVALID", devRounds: 1},
}

// runGateCases runs the rows selected by pick, in parallel.
func runGateCases(t *testing.T, pick func(gateCase) bool) {
	for _, c := range gateCases {
		if !pick(c) {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, func(s *settings.Settings) {
				if c.observer {
					s.Roles.Observer = &settings.ToolRef{Tool: "mock", Model: "observer-model"}
				}
				s.Review.Gate = !c.gateOff
				if c.maxFix < 0 {
					s.Review.MaxFixRounds = 0
				}
			})
			tk := e.addTask("Gate case.\n[[mock-verdicts "+c.marker+"]]\n", 1)
			res := e.claimRun(context.Background(), tk.ID)
			log := e.logText(tk.ID)
			if res.Status != c.status || res.Message != c.message {
				t.Fatalf("result %s %q, want %s %q\n%s", res.Status, res.Message, c.status, c.message, log)
			}
			got := e.get(tk.ID)
			if got.Status != c.status || got.Error != c.message {
				t.Fatalf("stored task %s %q", got.Status, got.Error)
			}
			if v := e.verdicts(tk.ID, task.SectionObserverReport); v != c.observerV {
				t.Errorf("observer verdicts %q, want %q", v, c.observerV)
			}
			if v := e.verdicts(tk.ID, task.SectionReviewerReport); v != c.reviewerV {
				t.Errorf("reviewer verdicts %q, want %q", v, c.reviewerV)
			}
			devs := e.sections(tk.ID, task.SectionDeveloperReport)
			if len(devs) != c.devRounds {
				t.Errorf("developer reports %d, want %d", len(devs), c.devRounds)
			}
			for i, d := range devs {
				if d.Round != i {
					t.Errorf("developer report %d has round %d", i, d.Round)
				}
			}
			for role, kind := range map[string]task.SectionKind{"Observer": task.SectionObserverReport, "Reviewer": task.SectionReviewerReport} {
				for i, s := range e.sections(tk.ID, kind) {
					if s.Round != i+1 || s.Iteration != 1 || !strings.Contains(s.Body, "Round ") {
						t.Errorf("%s report %d: round %d iteration %d", role, i, s.Round, s.Iteration)
					}
					mustContain(t, log, fmt.Sprintf("%s verdict (round %d): %s", role, i+1, s.Verdict))
				}
			}
			if !e.branchExists(worktree.BranchName(tk.ID)) {
				t.Error("task branch missing")
			}
			wtDir := filepath.Join(e.repo, worktree.DefaultRootName, tk.ID)
			_, statErr := os.Stat(wtDir)
			if c.status == task.StatusFailed {
				if statErr != nil {
					t.Errorf("failed task lost its worktree: %v", statErr)
				}
				mustContain(t, log, "Task failed: "+c.message, "worktree kept at "+wtDir)
			} else if !e.branchExists(worktree.LeftoversBranchName(tk.ID)) {
				t.Error("done task has no leftovers branch")
			}
			if c.devRounds > 1 {
				// Fix rounds carry the findings and the instruction.
				mustContain(t, log, "requested changes: developer fix round 1")
			}
		})
	}
}

// TestGateRulesQuick plays the representative rows; gate_slow_test.go plays the rest.
func TestGateRulesQuick(t *testing.T) {
	runGateCases(t, func(c gateCase) bool { return c.quick })
}
