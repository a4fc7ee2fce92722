package shell

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/boof-runner/boof-runner/backend/agent/mock"
	"github.com/boof-runner/boof-runner/backend/store"
)

// TestMain lets the test binary serve as the mock agent, as the app binary
// does with its hidden mock.AgentCommand command (Open's default Exe).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == mock.AgentCommand {
		os.Exit(mock.Main(os.Args[2:], os.Stdin, os.Stdout))
	}
	if root := os.Getenv("BOOF_INSTANCE_HELPER"); root != "" {
		instanceHelper(root)
	}
	os.Exit(m.Run())
}

func newTestStore(t *testing.T) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "boof.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
