//go:build realcli

package claude

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/agent/fakemodel"
	"github.com/boof-runner/boof-runner/backend/task"
)

// readOnlyStep runs one read-only planner step of tool and returns its raw
// output; the step must succeed and the model must be offered no edit tool.
func readOnlyStep(t *testing.T, tool *Tool, srv *fakemodel.Server) string {
	t.Helper()
	srv.Enqueue(fakemodel.Reply{Text: "Plan: nothing to change."})
	var out strings.Builder
	run, err := tool.Start(context.Background(), agent.Request{Role: task.RolePlanner, Prompt: "Plan it.", Dir: gitRepo(t), ReadOnly: true,
		OnOutput: func(b []byte) { out.Write(b) }, Grace: 2 * time.Second, IdleTimeout: 2 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if res, _ := run.Wait(); res.Failed() {
		t.Fatalf("result %+v\noutput %q", res, out.String())
	}
	reqs := srv.ModelRequests("/v1/messages")
	body := string(reqs[len(reqs)-1].Body)
	if strings.Contains(body, `"name":"Write"`) || strings.Contains(body, `"name":"Edit"`) || strings.Contains(body, `"name":"NotebookEdit"`) {
		t.Errorf("the read-only step was offered an edit tool")
	}
	return out.String()
}

// A read-only step denies only tools the installed claude has: claude 2.1
// has no MultiEdit, and a deny rule naming it made every read-only step
// print `Permission deny rule "MultiEdit" matches no known tool`. Before
// anything is known the safe list is used; the health check's smoke run
// then records this claude's tools and version in the state dir, which a
// Tool of another process reads.
func TestRealReadOnlyStepDeniesOnlyKnownTools(t *testing.T) {
	bin := claudeBin(t)
	srv := fakemodel.Start(t)
	state := t.TempDir()
	newTool := func() *Tool {
		return New(Options{Path: bin, Runner: testRunner, Env: fakeEnv(t, srv.URL(), true), PassEnv: []string{}, StateDir: state})
	}
	if out := readOnlyStep(t, newTool(), srv); strings.Contains(out, "matches no known tool") {
		t.Fatalf("read-only step with unknown tools: %q", out)
	}

	srv.Enqueue(fakemodel.Reply{Text: "OK"})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if h := newTool().Health(ctx, ""); !h.Authenticated {
		t.Fatalf("health %+v", h)
	}
	b, err := os.ReadFile(filepath.Join(state, toolsFile))
	if err != nil || !strings.Contains(string(b), `"version": "2.1.197"`) || !strings.Contains(string(b), `"Edit"`) {
		t.Fatalf("%s after the health check: %s %v", toolsFile, b, err)
	}
	key, _ := keyOf(bin)
	deny := newKnownTools(state).readOnlyDeny(key, true)
	if strings.Join(deny, ",") != "Edit,Write,NotebookEdit" {
		t.Errorf("deny list of claude 2.1.197 %q", deny)
	}
	if out := readOnlyStep(t, newTool(), srv); strings.Contains(out, "matches no known tool") {
		t.Fatalf("read-only step after the health check: %q", out)
	}
}
