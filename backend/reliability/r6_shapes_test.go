//go:build linux && reliability

package reliability

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/secrets"
	"github.com/boof-runner/boof-runner/backend/secrets/secretstest"
	"github.com/boof-runner/boof-runner/backend/task"
)

// R6's shapes trials: the developer is claude or codex (their real
// adapters, the CLI a script replaying a transcript written for the
// trial) printing every format the rule set knows in every shape its
// output has: printed lines, JSON-escaped text, a tool result holding a
// JSON document (escaped twice), claude's numbered Read view; the report
// holds them too.

// everyFormat is the corpus and an example of every regex rule.
func everyFormat(t *testing.T) []secretstest.Sample {
	t.Helper()
	gen, missed := secretstest.Generate(secrets.Default().RegexRules())
	if len(gen) < 200 {
		t.Fatalf("%d rule examples (none for %v)", len(gen), missed)
	}
	return append(secretstest.Corpus(), gen...)
}

// leakTranscript returns the stdout of a cli ("claude" or "codex") run
// that prints the samples in every shape of its output, and its report.
func leakTranscript(cli string, samples []secretstest.Sample) (stream, report string) {
	var all strings.Builder
	for _, s := range samples {
		all.WriteString(s.Text + "\n\n")
	}
	report = "Checked the configuration.\n\n## Config found\n" + all.String()
	var b strings.Builder
	line := func(s string) { b.WriteString(s + "\n") }
	const session = "5e551011-11a1-4a1e-9d1e-00000000000a"
	if cli == "claude" {
		line(`{"type":"system","subtype":"init","cwd":"/work/repo","session_id":"` + session + `","tools":["Bash","Read","Write"],"model":"claude-sonnet-5","permissionMode":"bypassPermissions","apiKeySource":"ANTHROPIC_API_KEY","claude_code_version":"2.1.197"}`)
	} else {
		line(`{"type":"thread.started","thread_id":"` + session + `"}`)
		line(`{"type":"turn.started"}`)
	}
	// One line of each shape holds them all (a tool result each: a run of
	// a tool result per sample would trip the no-progress breaker).
	for _, sh := range secretstest.Shapes() {
		if sh.Stream == "" || sh.Stream == streamOf[cli] {
			line(sh.Line(all.String()))
		}
	}
	if cli == "claude" {
		line(`{"type":"result","subtype":"success","is_error":false,"num_turns":3,"result":` + secretstest.Quote(report) +
			`,"session_id":"` + session + `","usage":{"input_tokens":36,"output_tokens":21}}`)
	} else {
		line(secretstest.CodexMessage(report))
		line(`{"type":"turn.completed","usage":{"input_tokens":54,"cached_input_tokens":0,"output_tokens":25}}`)
	}
	return b.String(), report
}

// streamOf is the line format of each CLI's output (secretstest names
// formats, not CLIs).
var streamOf = map[string]string{"claude": secretstest.StreamJSON, "codex": secretstest.ExecJSON}

// useLeakingCLI makes the trial's developer the cli, its executable the
// fake script of testdata replaying a transcript of the samples.
func (e *env) useLeakingCLI(cli string, samples []secretstest.Sample) {
	e.t.Helper()
	dir := e.t.TempDir() // outside the data root: it holds the secrets
	stream, report := leakTranscript(cli, samples)
	streamFile, reportFile := filepath.Join(dir, "stream.jsonl"), filepath.Join(dir, "last.txt")
	for name, body := range map[string]string{streamFile: stream, reportFile: report} {
		if err := os.WriteFile(name, []byte(body), 0o600); err != nil {
			e.t.Fatal(err)
		}
	}
	script, err := filepath.Abs(filepath.Join("..", "..", "testdata", cli, "fake-"+cli+".sh"))
	if err != nil {
		e.t.Fatal(err)
	}
	tool, env := "claude-code", map[string]any{"FAKE_CLAUDE_DIR": dir, "FAKE_CLAUDE_STREAM": streamFile}
	if cli == "codex" {
		tool, env = "codex", map[string]any{"FAKE_CODEX_STREAM": streamFile, "FAKE_CODEX_LAST": reportFile}
	}
	path := dataroot.Paths{Root: e.data}.Settings()
	b, err := os.ReadFile(path)
	if err != nil {
		e.t.Fatal(err)
	}
	var set map[string]any
	if err := json.Unmarshal(b, &set); err != nil {
		e.t.Fatal(err)
	}
	set["roles"].(map[string]any)["developer"] = map[string]any{"tool": tool}
	set["tools"] = map[string]any{tool: map[string]any{"path": script, "env": env}}
	if b, err = json.MarshalIndent(set, "", "  "); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		e.t.Fatal(err)
	}
}

// shapesTrial runs one task whose developer is the leaking cli, exports
// it into the data root and counts the secret values found on disk.
func shapesTrial(t *testing.T, tl *tally, cli string, samples []secretstest.Sample) {
	tl.add(kTrials, 1, "")
	e := newEnv(t, envOpts{})
	e.useLeakingCLI(cli, samples)
	id := e.add("Check the config.")
	if r := e.run(nil, "runner", "--until-idle"); r.code != 0 || e.task(id).Status != task.StatusDone {
		t.Fatalf("run: %d %s %q\n%s\n%s", r.code, e.task(id).Status, e.task(id).Error, r.stderr, e.logText(id))
	}
	if r := e.run(nil, "export", id, "-o", filepath.Join(e.data, "export.md")); r.code != 0 {
		t.Fatalf("export: %s", r.stderr)
	}
	// The developer's output reached the sinks: its transcript holds a
	// redaction for every sample in each of three shapes at least, its
	// report is exported.
	trs, _ := filepath.Glob(filepath.Join(dataroot.Paths{Root: e.data}.Transcripts(), id, "*developer*"))
	redacted := 0
	for _, f := range trs {
		b, _ := os.ReadFile(f)
		redacted += strings.Count(string(b), secrets.Redacted)
	}
	exported, _ := os.ReadFile(filepath.Join(e.data, "export.md"))
	if redacted < len(samples)*3 || !strings.Contains(string(exported), "Config found") {
		tl.add(kNotLeaked, 1, fmt.Sprintf("%s: %d redactions in %d developer transcripts, report exported %v",
			cli, redacted, len(trs), strings.Contains(string(exported), "Config found")))
	}
	n, where := onDisk(t, e.data, samples)
	tl.add(kOnDisk, n, cli+": "+strings.Join(where, "; "))
}
