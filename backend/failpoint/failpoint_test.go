package failpoint

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

func TestUnnamedPointDoesNothing(t *testing.T) {
	t.Setenv(EnvVar, "other:point,third=kill")
	Hit("this:point") // returns: not named
}

func TestPauseWaitsForTheFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "pause")
	t.Setenv(EnvVar, "x:y,this:point=pause:"+file)
	done := make(chan struct{})
	go func() { Hit("this:point"); close(done) }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Stat(file); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the pause file never appeared")
		}
		time.Sleep(5 * time.Millisecond)
	}
	select {
	case <-done:
		t.Fatal("returned before the file was removed")
	case <-time.After(50 * time.Millisecond):
	}
	os.Remove(file)
	<-done
}

// TestKillIsSIGKILL runs the test binary as a process that hits a kill
// point.
func TestKillIsSIGKILL(t *testing.T) {
	if os.Getenv("FAILPOINT_HELPER") == "1" {
		Hit("die:here")
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillIsSIGKILL$")
	cmd.Env = append(os.Environ(), "FAILPOINT_HELPER=1", EnvVar+"=die:here")
	err := cmd.Run()
	if err == nil || !killed(cmd.ProcessState) {
		t.Fatalf("helper ended with %v", err)
	}
}
