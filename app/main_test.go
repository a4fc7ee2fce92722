package app

import (
	"os"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent/mock"
)

// TestMain lets the test binary serve as the mock agent, as the app binary
// does with its hidden __mock-agent command.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == mock.AgentCommand {
		os.Exit(mock.Main(os.Args[2:], os.Stdin, os.Stdout))
	}
	os.Exit(m.Run())
}

// waitFor polls cond until it holds; the deadline only guards against a
// hang, it is not a speed requirement.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
