package opencode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/agent/openaicli/clitest"
	"github.com/boof-runner/boof-runner/backend/proc"
)

// readTestdata reads testdata/opencode/<name> from the repository root:
// output of the real opencode 1.18.33 against the fake model server (see
// its README).
func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "opencode", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// parsed feeds every line of b to a new run's parser and returns the run
// with the events it emitted.
func parsed(b []byte) (*run, *[]agent.Event) {
	evs := &[]agent.Event{}
	r := &run{parser: NewParser(func(e agent.Event) { *evs = append(*evs, e) })}
	for _, l := range bytes.Split(b, []byte("\n")) {
		r.parser.Line(l)
	}
	return r, evs
}

func TestParseToolUse(t *testing.T) {
	r, evs := parsed(readTestdata(t, "tool_use.jsonl"))
	if got, want := clitest.Kinds(*evs), "session,text,tool_call:write,tool_result:write,usage,text,usage"; got != want {
		t.Fatalf("events %s, want %s", got, want)
	}
	res := r.finish(proc.Result{}, "", func(agent.Event) {})
	if res.Failed() || res.Report != "Wrote hello.txt." || res.SessionID != "ses_db97e68f0ffejAt69p2w7rdV4u" {
		t.Fatalf("result %+v", res)
	}
	if want := (agent.Usage{InputTokens: 24, OutputTokens: 14}); res.Usage != want {
		t.Fatalf("usage %+v, want %+v (two steps, no cost known)", res.Usage, want)
	}
	for _, e := range *evs {
		if e.Kind == agent.EventToolCall && !strings.Contains(e.Text, `"filePath":"/tmp/k2o/work/hello.txt"`) {
			t.Errorf("tool call input %q", e.Text)
		}
		if e.Kind == agent.EventToolResult && (e.CallID != "call_fake000004" || e.IsError || e.Text != "Wrote file successfully.") {
			t.Errorf("tool result %+v", e)
		}
	}
}

// A read-only step runs without opencode's edit tools: the model's write
// call is answered as an unavailable tool.
func TestParseReadOnlyRefusedWrite(t *testing.T) {
	r, _ := parsed(readTestdata(t, "read_only.jsonl"))
	res := r.finish(proc.Result{}, "", func(agent.Event) {})
	if res.Failed() || res.Report != "VERDICT: APPROVE" {
		t.Fatalf("result %+v", res)
	}
}

// opencode retries a 429 five times itself (each a logged stream error),
// then prints an error event with the status and exits 1: a usage limit,
// its reset from the response's retry-after.
func TestFinishRateLimitIsALimit(t *testing.T) {
	r, evs := parsed(readTestdata(t, "rate_limit.txt"))
	retries := 0
	for _, e := range *evs {
		if e.Kind == agent.EventRetry {
			retries++
			if e.ErrorStatus != 429 || e.MaxAttempts != maxRetries || e.Attempt != min(retries, maxRetries) {
				t.Errorf("retry event %+v", e)
			}
		}
	}
	if retries != 6 {
		t.Fatalf("%d retry events, want 6 (the call and five retries): %s", retries, clitest.Kinds(*evs))
	}
	res := r.finish(proc.Result{ExitCode: 1}, "", func(agent.Event) {})
	if !res.Failed() || res.Transient || res.Limit == nil || res.Limit.Message != "API Error: 429 Rate limit reached for requests" ||
		res.SessionID != "ses_db973af41ffe3Dc51MK4NklLkg" || res.Report != "" {
		t.Fatalf("result %+v limit %+v", res, res.Limit)
	}
}

// A limit stop of the adapter (opencode waiting out a long retry-after)
// is a usage limit; a user's stop stays a stop.
func TestFinishQuietLimit(t *testing.T) {
	r, _ := parsed([]byte(`timestamp=2026-12-05T14:12:55.154Z level=ERROR run=b8 message="stream error" providerID=boof error.error="AI_APICallError: You have exceeded your usage quota. Your quota will reset at 2026-12-05T18:30:00Z."`))
	r.limitStop.Store(true)
	res := r.finish(proc.Result{ExitCode: -1, Signal: "terminated", Reason: proc.ReasonStopped}, "ses_abc", nil)
	if res.StopReason != proc.ReasonNone || !res.Failed() || res.Limit == nil || res.SessionID != "ses_abc" ||
		!res.Limit.ResetsAt.Equal(time.Date(2026, 12, 5, 18, 30, 0, 0, time.UTC)) {
		t.Fatalf("result %+v limit %+v", res, res.Limit)
	}
	r.userStop.Store(true)
	if res := r.finish(proc.Result{ExitCode: -1, Reason: proc.ReasonStopped}, "", func(agent.Event) {}); res.Limit != nil || res.StopReason != proc.ReasonStopped {
		t.Fatalf("user stop became %+v", res)
	}
}

func TestFinishGarbageAndUnknownFlag(t *testing.T) {
	r, _ := parsed([]byte("\x1b[31mnot json\x1b[0m\n{\n{\"type\":\"text\",\"part\":7}\n\xff\xfe\nUnknown argument: auto"))
	res := r.finish(proc.Result{ExitCode: 1}, "", func(agent.Event) {})
	if !res.Failed() || res.Transient || res.Limit != nil || !strings.Contains(res.ErrorText, "tested with opencode "+TestedVersion) {
		t.Fatalf("result %+v", res)
	}
	r, _ = parsed([]byte("garbage only"))
	if res := r.finish(proc.Result{}, "", func(agent.Event) {}); !res.Failed() || !strings.Contains(res.ErrorText, "without finishing a step: garbage only") {
		t.Fatalf("exit 0 without a step: %+v", res)
	}
}

func TestResolveModel(t *testing.T) {
	for _, tc := range []struct {
		name, model, envModel string
		endpoint              bool
		configured            []string
		want                  string
		declare               string
		err                   error
	}{
		{"provider/model as it is", "anthropic/claude-sonnet-4-5", "", false, nil, "anthropic/claude-sonnet-4-5", "", nil},
		{"default without endpoint", "", "gpt-x", false, nil, "", "", nil},
		{"endpoint default", "", "qwen3-coder-plus", true, nil, "boof/qwen3-coder-plus", "qwen3-coder-plus", nil},
		{"bare model on the endpoint", "fake-model", "other", true, []string{"m2", "openai/gpt-5", "boof/m3"},
			"boof/fake-model", "fake-model,other,m2,m3", nil},
		{"bare model without endpoint", "fake-model", "", false, nil, "", "", ErrBadModel},
		{"option-looking model", "--auto", "", true, nil, "", "", ErrBadModel},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, declare, err := resolveModel(tc.model, tc.endpoint, tc.envModel, tc.configured)
			if !errors.Is(err, tc.err) || got != tc.want || strings.Join(declare, ",") != tc.declare {
				t.Fatalf("got %q %q %v, want %q %q %v", got, declare, err, tc.want, tc.declare, tc.err)
			}
		})
	}
}

// The config names the endpoint's URL and key as {env:…} references: no
// key is ever written down.
func TestConfigContent(t *testing.T) {
	b, err := configContent(configParams{endpoint: true, models: []string{"m1"}, instructions: "/tmp/role.md", readOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Instructions []string          `json:"instructions"`
		Permission   map[string]string `json:"permission"`
		Provider     map[string]struct {
			NPM     string            `json:"npm"`
			Options map[string]string `json:"options"`
			Models  map[string]any    `json:"models"`
		} `json:"provider"`
	}
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	p := c.Provider[Provider]
	if p.NPM != "@ai-sdk/openai-compatible" || p.Options["baseURL"] != "{env:OPENAI_BASE_URL}" || p.Options["apiKey"] != "{env:OPENAI_API_KEY}" ||
		p.Models["m1"] == nil || c.Permission["edit"] != "deny" || c.Instructions[0] != "/tmp/role.md" {
		t.Fatalf("config %s", b)
	}
	b, _ = configContent(configParams{})
	if strings.Contains(string(b), "provider") || strings.Contains(string(b), "permission") || strings.Contains(string(b), "instructions") {
		t.Fatalf("plain config %s", b)
	}
}

// opencode's config home links every entry of the user's config home but
// opencode's own, so the user's ~/.config/opencode is never opencode's.
func TestConfigHome(t *testing.T) {
	user := t.TempDir()
	for _, d := range []string{"git", "opencode"} {
		if err := os.MkdirAll(filepath.Join(user, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(user, "opencode", "opencode.json"), []byte(`{}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tool := New(Options{LookupEnv: func(string) (string, bool) { return "", false }})
	env := []string{"XDG_CONFIG_HOME=" + user}
	state := t.TempDir()
	for range 2 { // the second run finds the links made
		home, err := tool.configHome(env, state)
		if err != nil {
			t.Fatal(err)
		}
		if l, err := os.Readlink(filepath.Join(home, "git")); err != nil || l != filepath.Join(user, "git") {
			t.Fatalf("git link %q %v", l, err)
		}
		if st, err := os.Lstat(filepath.Join(home, Name)); err != nil || !st.IsDir() {
			t.Fatalf("opencode's own config dir: %v %v", st, err)
		}
	}
	if f := tool.userConfigFile(env); f != filepath.Join(user, "opencode", "opencode.json") {
		t.Fatalf("user config file %q", f)
	}
}

func TestLockSession(t *testing.T) {
	state := t.TempDir()
	release, err := lockSession(state, "ses_abc123")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lockSession(state, "ses_abc123"); !errors.Is(err, ErrSessionBusy) {
		t.Fatalf("second run of a running session: %v", err)
	}
	release()
	release, err = lockSession(state, "ses_abc123")
	if err != nil {
		t.Fatalf("after the run ended: %v", err)
	}
	release()
	if _, err := lockSession(state, "../x"); !errors.Is(err, ErrBadSession) {
		t.Fatalf("bad session: %v", err)
	}
}

func TestCheckVersion(t *testing.T) {
	for v, ok := range map[string]bool{"1.18.33": true, "1.18.0": true, "1.19.2": true, "2.0.0": true, "1.17.9": false, "0.9.0": false} {
		if err := checkVersion(v); (err == nil) != ok {
			t.Errorf("checkVersion(%s) = %v", v, err)
		}
	}
}

// The user's config (JSON with comments, as opencode takes it) is laid
// under the step's: its providers stay, the step's settings win, the
// instructions add up.
func TestUserConfigUnderTheStep(t *testing.T) {
	p := filepath.Join(t.TempDir(), "opencode.jsonc")
	user := `{
  // the user's own provider
  "provider": {"mine": {"options": {"baseURL": "https://example.com/v1", "apiKey": "{env:MINE_KEY}"}, "models": {"m": {}}},},
  "permission": {"bash": "ask", "edit": "allow"}, /* kept */
  "instructions": ["AGENTS.local.md"],
  "snapshot": true,
  "url": "http://a//b", "s": "/* not a comment */",
}`
	if err := os.WriteFile(p, []byte(user), 0o600); err != nil {
		t.Fatal(err)
	}
	m, err := readUserConfig(p)
	if err != nil {
		t.Fatal(err)
	}
	b, err := configContent(configParams{user: m, endpoint: true, models: []string{"fake"}, instructions: "/tmp/role.md", readOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	var c map[string]any
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	prov := c["provider"].(map[string]any)
	perm := c["permission"].(map[string]any)
	if prov["mine"] == nil || prov[Provider] == nil || perm["edit"] != "deny" || perm["bash"] != "ask" || c["snapshot"] != false ||
		c["url"] != "http://a//b" || c["s"] != "/* not a comment */" {
		t.Fatalf("merged config %s", b)
	}
	if got := fmt.Sprint(c["instructions"]); got != "[AGENTS.local.md /tmp/role.md]" {
		t.Fatalf("instructions %s", got)
	}
	if err := os.WriteFile(p, []byte(`{"provider": `), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := readUserConfig(p); err == nil {
		t.Fatal("a broken config was read")
	}
}

func TestResetFrom(t *testing.T) {
	now := time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		retryAfter, text string
		want             time.Time
	}{
		{"7200", "Your quota will reset at 2026-12-05T18:30:00Z.", time.Date(2026, 12, 5, 18, 30, 0, 0, time.UTC)},
		{"90", "Rate limit reached", now.Add(90 * time.Second)},
		{"Sat, 05 Dec 2026 11:00:00 GMT", "", time.Date(2026, 12, 5, 11, 0, 0, 0, time.UTC)},
		{"", `{"error":{"resets_in_seconds": 600}}`, now.Add(10 * time.Minute)},
		{"garbage", "Rate limit reached", time.Time{}},
	} {
		if got := resetFrom(tc.retryAfter, tc.text, now); !got.Equal(tc.want) {
			t.Errorf("resetFrom(%q, %q) = %v, want %v", tc.retryAfter, tc.text, got, tc.want)
		}
	}
}

// A server error opencode gave up on is transient, in the words the
// pipeline's retry knows.
func TestFinishServerErrorIsTransient(t *testing.T) {
	r, _ := parsed([]byte(`{"type":"error","sessionID":"ses_Z","error":{"name":"APIError","data":{"message":"Service Unavailable","statusCode":503}}}`))
	res := r.finish(proc.Result{ExitCode: 1}, "", func(agent.Event) {})
	if !res.Failed() || !res.Transient || res.Limit != nil || res.ErrorText != "API Error: 503 Service Unavailable" {
		t.Fatalf("result %+v", res)
	}
}
