package gitx

import (
	"context"
	"os/exec"
	"strings"
	"testing"
)

func TestBranches(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"-c", "user.name=T", "-c", "user.email=t@x", "commit", "-q", "--allow-empty", "-m", "init"},
		{"branch", "feature/x"},
		{"branch", "boof-runner/0123456789abcdef"},
	} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	got, err := New().Branches(context.Background(), dir, "boof-runner/")
	if err != nil || strings.Join(got, ",") != "feature/x,main" {
		t.Fatalf("got %v %v", got, err)
	}
	all, _ := New().Branches(context.Background(), dir, "")
	if len(all) != 3 {
		t.Fatalf("all %v", all)
	}
	if _, err := New().Branches(context.Background(), t.TempDir(), ""); err == nil {
		t.Fatal("a non-repository listed branches")
	}
}
