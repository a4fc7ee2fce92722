package claude

import (
	"os"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/proc"
)

// testRunner is the one process runner of this test binary.
var testRunner *proc.Runner

func TestMain(m *testing.M) {
	testRunner = proc.NewRunner(proc.RunnerOptions{})
	code := m.Run()
	testRunner.Shutdown(2 * time.Second)
	os.Exit(code)
}
