package gemini

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
)

// A step runs gemini with stream-json, yolo, the model, the resumed
// session, the attachments and the prompt as flags, in a config directory
// of its own holding the role system prompt; the recorded stream becomes
// the report, the questions, the session and the usage priced per model.
func TestAdapterArgsEnvAndResult(t *testing.T) {
	tool, rec := fakeCLI(t, "tool_use", "0", map[string]string{"GEMINI_API_KEY": "key-from-app", "UNLISTED": "x"})
	transcript := filepath.Join(t.TempDir(), "t.log")
	dir := t.TempDir()
	recordSession(t, tool, dir, "2fcfaeb8-c6ec-4758-9790-4908e92eb7e9", true)
	res, evs := runFake(t, tool, agent.Request{Prompt: "- Do it.", SystemPrompt: "- You develop.", Model: "gemini-2.5-flash",
		ResumeSession: "2fcfaeb8-c6ec-4758-9790-4908e92eb7e9", Env: []string{"REQ_VAR=1"}, TranscriptPath: transcript,
		ReadDirs: []string{"/data/attachments/t1"}, Dir: dir})
	if res.Failed() || res.Report != "Wrote hello.txt.\n\n## Questions for the user\n- Keep the trailing newline?\n" {
		t.Fatalf("result %+v", res)
	}
	if res.SessionID != "47d9f6bf-f99a-4af1-8c1d-e1411299e1dc" {
		t.Errorf("session %q", res.SessionID)
	}
	if !slices.Equal(res.Questions, []string{"Keep the trailing newline?"}) || evs[len(evs)-1].Kind != agent.EventQuestion {
		t.Fatalf("questions %q, last event %+v", res.Questions, evs[len(evs)-1])
	}
	want := agent.Usage{InputTokens: 324, OutputTokens: 54, CostUSD: (324*0.30 + 54*2.50) / 1e6, CostKnown: true}
	if d := res.Usage.CostUSD - want.CostUSD; res.Usage.InputTokens != want.InputTokens || res.Usage.OutputTokens != want.OutputTokens ||
		!res.Usage.CostKnown || d > 1e-12 || d < -1e-12 {
		t.Errorf("usage %+v, want %+v", res.Usage, want)
	}
	args := readArgs(t, rec)
	wantArgs := []string{"--output-format", "stream-json", "--skip-trust", "--yolo", "--model=gemini-2.5-flash",
		"--resume=2fcfaeb8-c6ec-4758-9790-4908e92eb7e9", "--include-directories=/data/attachments/t1", "--prompt=- Do it."}
	if !slices.Equal(args, wantArgs) {
		t.Fatalf("args %q", args)
	}
	env := readEnv(t, rec)
	home := env["GEMINI_CLI_HOME"]
	if env["GEMINI_API_KEY"] != "key-from-app" || env["REQ_VAR"] != "1" || env["GEMINI_CLI_NO_RELAUNCH"] != "true" || home == "" {
		t.Fatalf("env %v", env)
	}
	if _, ok := env["UNLISTED"]; ok {
		t.Error("a variable gemini does not need was passed")
	}
	if filepath.Dir(home) != filepath.Join(tool.opts.StateDir, "homes") {
		t.Errorf("config dir %s is not in the state dir's homes", home)
	}
	if b, err := os.ReadFile(filepath.Join(home, ".gemini", "GEMINI.md")); err != nil || string(b) != "- You develop." {
		t.Errorf("system prompt %q %v", b, err)
	}
	var kinds []string
	for _, e := range evs {
		kinds = append(kinds, string(e.Kind))
	}
	if got := strings.Join(kinds, " "); !strings.HasSuffix(got, "session text tool_call tool_result tool_call tool_result text usage question") {
		t.Errorf("events %s", got)
	}
	if b, _ := os.ReadFile(transcript); !strings.Contains(string(b), `"type":"result"`) {
		t.Error("no transcript")
	}
}

// A prompt too long for an argument goes through stdin, verbatim, with
// an empty --prompt; a read-only step runs with the policy that denies
// the edit tools.
func TestAdapterLongPromptAndReadOnly(t *testing.T) {
	tool, rec := fakeCLI(t, "success", "0", nil)
	long := strings.Repeat("word ", maxArgBytes/5+10) + "\n-- end"
	res, _ := runFake(t, tool, agent.Request{Prompt: long, ReadOnly: true})
	if res.Failed() || res.Report != "All done.\n\nVERDICT: APPROVE" {
		t.Fatalf("result %+v", res)
	}
	args := readArgs(t, rec)
	if args[len(args)-1] != "--prompt=" {
		t.Fatalf("args %q", args)
	}
	if b, _ := os.ReadFile(filepath.Join(rec, "stdin.txt")); string(b) != long {
		t.Fatalf("stdin held %d bytes, want the %d of the prompt", len(b), len(long))
	}
	var policy string
	for _, a := range args {
		if p, ok := strings.CutPrefix(a, "--policy="); ok {
			policy = p
		}
	}
	if b, err := os.ReadFile(policy); err != nil || !strings.Contains(string(b), `toolName = ["write_file", "replace"]`) ||
		!strings.Contains(string(b), `decision = "deny"`) {
		t.Fatalf("policy %q: %q %v", policy, b, err)
	}
}

// Each recorded failure is read the way the pipeline needs it: a quota
// is a usage limit with its reset (the retry delay, else the next
// midnight Pacific for a daily quota), a 503 or a refused connection a
// transient failure, a bad key or a missing one neither, each with
// gemini's own words.
func TestAdapterFailures(t *testing.T) {
	cases := []struct {
		recorded, exit string
		text           string
		limit          bool
		transient      bool
	}{
		{"usage_limit", "173", "Suggested retry after 3599s", true, false},
		{"daily_quota", "173", "You have exhausted your daily quota on this model.", true, false},
		{"error_503", "247", "The model is overloaded", false, true},
		{"error_refused", "1", "fetch failed sending request", false, true},
		{"error_auth", "144", "API key not valid", false, false},
		{"no_key", "41", "gemini ended without a result: When using Gemini API, you must specify the GEMINI_API_KEY environment variable. | Update", false, false},
	}
	for _, c := range cases {
		t.Run(c.recorded, func(t *testing.T) {
			tool, _ := fakeCLI(t, c.recorded, c.exit, nil)
			res, _ := runFake(t, tool, agent.Request{Prompt: "go"})
			if !res.Failed() || !strings.Contains(res.ErrorText, c.text) || (res.Limit != nil) != c.limit || res.Transient != c.transient {
				t.Fatalf("result %+v", res)
			}
			if res.Report != "" || res.Exhausted != "" {
				t.Errorf("report %q exhausted %q", res.Report, res.Exhausted)
			}
			if !c.limit {
				return
			}
			// The reset counts from when gemini gave up: its result line's time.
			at := resultTime(t, c.recorded)
			switch c.recorded {
			case "usage_limit":
				if want := at.Add(3599 * time.Second).Truncate(time.Second); !res.Limit.ResetsAt.Equal(want) {
					t.Errorf("reset %s, want %s", res.Limit.ResetsAt, want)
				}
			case "daily_quota":
				la, err := time.LoadLocation("America/Los_Angeles")
				if err != nil {
					t.Skip("no time zone data")
				}
				if want := NextQuotaDay(at, la); !res.Limit.ResetsAt.Equal(want) || res.Limit.Kind != "daily_quota" {
					t.Errorf("reset %s (%s), want %s", res.Limit.ResetsAt, res.Limit.Kind, want)
				}
			}
		})
	}
}

// A stream that stops before its result is a failure that says so, with
// what gemini printed besides; one that prints garbage is too.
func TestAdapterNoResult(t *testing.T) {
	td := t.TempDir()
	cut := filepath.Join(td, "cut.jsonl")
	b, err := os.ReadFile(filepath.Join(testdata(t), "tool_use", "stream.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	if err := os.WriteFile(cut, []byte(strings.Join(lines[:5], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	garbage := filepath.Join(td, "garbage.jsonl")
	if err := os.WriteFile(garbage, []byte("\x00\xff not \x1b[31mjson\x1b[0m {\x07\n{\"type\":\"nonsense\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, stream := range map[string]string{"cut": cut, "garbage": garbage} {
		t.Run(name, func(t *testing.T) {
			tool, _ := fakeCLI(t, "success", "0", nil)
			tool.opts.Env = append(tool.opts.Env, "FAKE_GEMINI_STREAM="+stream)
			res, _ := runFake(t, tool, agent.Request{Prompt: "go"})
			if !res.Failed() || !strings.HasPrefix(res.ErrorText, "gemini ended without a result") || res.Limit != nil || res.Report != "" {
				t.Fatalf("result %+v", res)
			}
			if strings.ContainsFunc(res.ErrorText, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
				t.Errorf("control characters in %q", res.ErrorText)
			}
		})
	}
}

// resultTime is the timestamp of a recorded case's result line.
func resultTime(t *testing.T, recorded string) time.Time {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testdata(t), recorded, "stream.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		var v struct {
			Type      string    `json:"type"`
			Timestamp time.Time `json:"timestamp"`
		}
		if json.Unmarshal([]byte(l), &v) == nil && v.Type == "result" {
			return v.Timestamp
		}
	}
	t.Fatalf("%s has no result line", recorded)
	return time.Time{}
}

// recordSession writes gemini's record of session id in the config
// directory of dir, as gemini 0.61 writes it: answered says whether the
// model answered in it (a refused turn is rolled back, leaving only the
// session context).
func recordSession(t *testing.T, tool *Tool, dir, id string, answered bool) {
	t.Helper()
	chats := filepath.Join(tool.opts.StateDir, "homes", homeKey(dir), ".gemini", "tmp", filepath.Base(dir), "chats")
	if err := os.MkdirAll(chats, 0o700); err != nil {
		t.Fatal(err)
	}
	lines := `{"sessionId":"` + id + `","projectHash":"x","startTime":"2026-12-05T13:55:43.721Z","kind":"main"}` + "\n" +
		`{"$set":{"messages":[{"id":"a","type":"user","content":[{"text":"<session_context>x</session_context>"}]}]}}` + "\n"
	if answered {
		lines += `{"id":"b","type":"user","content":[{"text":"go"}]}` + "\n" + `{"id":"c","type":"gemini","content":"done"}` + "\n"
	}
	if err := os.WriteFile(filepath.Join(chats, "session-2026-12-05T13-55-"+id[:8]+".jsonl"), []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
}

// A session without an answer of the model (its run was refused before
// one; gemini rolled the turn back) is not resumed: gemini would fail on
// --resume; the step starts a new session with its whole prompt and says
// so. A session with an answer is resumed.
func TestResumeOnlyARecordedSession(t *testing.T) {
	tool, rec := fakeCLI(t, "success", "0", nil)
	dir := t.TempDir()
	const id = "6b03609d-793c-41da-961a-874cc1bf25f5"
	recordSession(t, tool, dir, id, false)
	res, evs := runFake(t, tool, agent.Request{Prompt: "go", Dir: dir, ResumeSession: id})
	if res.Failed() || res.SessionID != "2fcfaeb8-c6ec-4758-9790-4908e92eb7e9" {
		t.Fatalf("result %+v", res)
	}
	if args := strings.Join(readArgs(t, rec), " "); strings.Contains(args, "--resume") {
		t.Fatalf("resumed an unrecorded session: %s", args)
	}
	if evs[0].Kind != agent.EventRaw || !strings.Contains(evs[0].Text, "gemini has no answer recorded in session "+id) {
		t.Errorf("first event %+v", evs[0])
	}
	recordSession(t, tool, dir, id, true)
	runFake(t, tool, agent.Request{Prompt: "go", Dir: dir, ResumeSession: id})
	if args := strings.Join(readArgs(t, rec), " "); !strings.Contains(args, "--resume="+id) {
		t.Fatalf("did not resume a recorded session: %s", args)
	}
}
