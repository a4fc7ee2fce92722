package app

import (
	"os"
	"testing"

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
