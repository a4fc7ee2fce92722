package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/cli"
	"github.com/boof-runner/boof-runner/backend/settings"
)

// sample is a value `settings set` accepts for one leaf of the settings,
// keyed as the leaf is written with "*" for a map's key (a tool's name, a
// variable's name).
type sample struct{ key, value string }

// samples lists a valid value for every leaf of settings.Settings, in the
// order they are set: a role's tool before its model, a budget's amount
// before its mode (validation refuses the other order's first step).
func samples(dir string) []sample {
	wd, _ := json.Marshal(dir)
	out := []sample{{"workingDirectory", string(wd)},
		{"runner.enabled", "false"}, {"runner.concurrency", "3"}, {"runner.runMissedSchedules", "false"}}
	for _, role := range []string{"planner", "refinement", "developer", "observer", "reviewer"} {
		out = append(out, sample{"roles." + role + ".tool", `"mock"`}, sample{"roles." + role + ".model", `"model-` + role + `"`},
			sample{"roles." + role + ".write", "true"})
	}
	out = append(out,
		sample{"review.gate", "false"}, sample{"review.maxFixRounds", "4"}, sample{"review.maxInlineDiffBytes", "5000"},
		sample{"worktree.root", `"/srv/worktrees"`}, sample{"worktree.onDone", `"delete"`}, sample{"worktree.onFailure", `"delete"`},
		sample{"retries.transient", "3"}, sample{"retries.backoffMs", "[1000,2000]"}, sample{"retries.idleTimeoutMs", "60000"},
		sample{"stop.graceMs", "1000"},
		sample{"ui.notifications", "false"}, sample{"ui.closeToTray", "false"}, sample{"ui.startAtLogin", "true"}, sample{"ui.diffView", `"split"`}, sample{"ui.setupDismissed", "true"},
		sample{"verify.command", `"make check"`}, sample{"verify.timeoutMs", "60000"}, sample{"verify.maxOutputBytes", "1048576"},
		sample{"tools.*.path", `"codex-nightly"`}, sample{"tools.*.env.*", `"on"`})
	for _, scope := range []string{"budgets.", "budgets.tools.*."} {
		for _, period := range []string{"task", "daily", "monthly"} {
			out = append(out, sample{scope + period + ".usd", "2.5"}, sample{scope + period + ".tokens", "100000"},
				sample{scope + period + ".mode", `"cap"`})
		}
	}
	return append(out,
		sample{"breakers.toolCalls", "10"}, sample{"breakers.repeatFailures", "4"}, sample{"breakers.noProgress", "5"},
		sample{"breakers.tokensPerMinute", "1000"}, sample{"breakers.velocityWindowMs", "2000"},
		sample{"limits.onLimit", `"switch"`}, sample{"limits.switchOrder", `["codex", "claude-code"]`},
		sample{"forge.hosts", `[{"host": "git.example.com", "kind": "gitlab"}]`}, sample{"forge.remote", `"upstream"`},
		sample{"forge.branch", `"boof/{id}"`}, sample{"forge.draft", "true"}, sample{"forge.labels", `["boof"]`},
		sample{"forge.reviewers", `["alice"]`}, sample{"forge.pollSeconds", "120"}, sample{"forge.timeoutSeconds", "30"},
		sample{"sessions.rotateAfterTurns", "10"}, sample{"sessions.rotateContextPercent", "50"}, sample{"sessions.maxRotations", "2"},
		sample{"executor.image", `"registry.example/boof-runner:1"`}, sample{"executor.kind", `"kubernetes"`},
		sample{"executor.kubeconfig", `"/srv/kube/config"`}, sample{"executor.context", `"prod"`}, sample{"executor.namespace", `"agents"`},
		sample{"executor.resources.*.*", `"500m"`}, sample{"executor.serviceAccount", `"boof"`}, sample{"executor.secretName", `"agent-keys"`},
		sample{"executor.concurrency", "8"}, sample{"executor.stepDeadlineMinutes", "30"}, sample{"executor.bundleAddress", `"0.0.0.0:8427"`},
		sample{"executor.bundleURL", `"http://desk.example:8427"`}, sample{"executor.imagePullTimeoutSeconds", "60"})
}

// concrete names the map keys of a sample key: the codex tool under
// "tools" (settings and budgets), a variable under "env", the cpu request
// under "executor.resources".
func concrete(key string) string {
	parts := strings.Split(key, ".")
	for i, p := range parts {
		if p == "*" {
			parts[i] = map[string]string{"tools": "codex", "env": "BOOF_SAMPLE", "resources": "requests", "requests": "cpu"}[parts[i-1]]
		}
	}
	return strings.Join(parts, ".")
}

// TestSettingsSamplesCoverEveryField: samples has a value for each leaf
// encoding/json writes for a Settings with every field set, and for no
// other key, so a field added to Settings fails here until it is given a
// sample, and then TestSettingsSetGetEveryLeaf sets and reads it.
func TestSettingsSamplesCoverEveryField(t *testing.T) {
	var have []string
	for _, s := range samples(t.TempDir()) {
		have = append(have, s.key)
	}
	want := settingsLeaves(t)
	for _, k := range want {
		if !slices.Contains(have, k) {
			t.Errorf("settings.Settings has a leaf %s with no sample: give it a value settings set accepts", k)
		}
	}
	for _, k := range have {
		if !slices.Contains(want, k) {
			t.Errorf("sample %s names no leaf of settings.Settings", k)
		}
	}
}

// TestSettingsSetGetEveryLeaf: every leaf of the settings is set through
// `boof-runner settings set` (cli.Run) to its sample, read back through
// `settings get` after each set and all together at the end, and the file
// holding them all draws no unknown-key warning. roles.<role>.write was
// refused as an unknown key before the keys were derived from Settings.
func TestSettingsSetGetEveryLeaf(t *testing.T) {
	data := t.TempDir()
	all := samples(t.TempDir())
	for _, s := range all {
		key := concrete(s.key)
		if code, out, errs := inProcess(t, data, "settings", "set", key, s.value); code != 0 || errs != "" {
			t.Fatalf("settings set %s %s: exit %d\n%s%s", key, s.value, code, out, errs)
		}
		if code, out, errs := inProcess(t, data, "settings", "get", key); code != 0 || errs != "" || !sameJSON(t, out, s.value) {
			t.Fatalf("settings get %s: exit %d, %q, stderr %q; want %s", key, code, out, errs, s.value)
		}
	}
	code, out, errs := inProcess(t, data, "settings", "get")
	if code != 0 || strings.Contains(errs, "does not know") {
		t.Fatalf("settings get: exit %d, stderr %q", code, errs)
	}
	var tree map[string]any
	if err := json.Unmarshal([]byte(out), &tree); err != nil {
		t.Fatalf("settings get: %v\n%s", err, out)
	}
	for _, s := range all {
		var v any = tree
		for _, p := range strings.Split(concrete(s.key), ".") {
			v = v.(map[string]any)[p]
		}
		b, _ := json.Marshal(v)
		if !sameJSON(t, string(b), s.value) {
			t.Errorf("after every set, %s = %s, want %s", concrete(s.key), b, s.value)
		}
	}
}

// inProcess runs cli.Run in this process against data root data.
func inProcess(t *testing.T, data string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := cli.Env{Getenv: func(k string) string {
		if k == "BOOF_RUNNER_HOME" {
			return ""
		}
		return os.Getenv(k)
	}}
	code = cli.Run(context.Background(), append(args, "--data-dir", data), cli.IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}, env)
	return code, out.String(), errb.String()
}

// sameJSON reports whether two JSON texts hold the same value.
func sameJSON(t *testing.T, a, b string) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal([]byte(a), &va); err != nil {
		return false
	}
	if err := json.Unmarshal([]byte(b), &vb); err != nil {
		t.Fatalf("sample %s is not JSON: %v", b, err)
	}
	return reflect.DeepEqual(va, vb)
}

// settingsLeaves lists, sorted, the dotted keys of the leaves encoding/json
// writes for a settings.Settings with every field set (a map's one key is
// "*"); lists and scalars are leaves.
func settingsLeaves(t *testing.T) []string {
	t.Helper()
	var s settings.Settings
	fill(reflect.ValueOf(&s).Elem())
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var tree map[string]any
	if err := json.Unmarshal(b, &tree); err != nil {
		t.Fatal(err)
	}
	var out []string
	var walk func(prefix string, m map[string]any)
	walk = func(prefix string, m map[string]any) {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if sub, ok := m[k].(map[string]any); ok {
				walk(prefix+k+".", sub)
				continue
			}
			out = append(out, prefix+k)
		}
	}
	walk("", tree)
	slices.Sort(out)
	return out
}

// fill sets every exported part of v to a non-zero value: each pointer,
// one entry "*" in each map, one element in each list.
func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem())
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i))
			}
		}
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		e := reflect.New(v.Type().Elem()).Elem()
		fill(e)
		m.SetMapIndex(reflect.ValueOf("*").Convert(v.Type().Key()), e)
		v.Set(m)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fill(s.Index(0))
		v.Set(s)
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1)
	}
}
