package codex

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeProvider returns the codex config overrides that point codex at a fake
// model server at baseURL ("http://127.0.0.1:PORT"), with no retries of
// single requests so scripted errors surface at once.
func fakeProvider(baseURL string) []string {
	return []string{
		"model_provider=fake",
		"model_providers.fake.name=fake",
		"model_providers.fake.base_url=" + baseURL + "/v1",
		"model_providers.fake.env_key=FAKE_KEY",
		"model_providers.fake.wire_api=responses",
		"model_providers.fake.request_max_retries=0",
	}
}

// codexHome makes a temp HOME with CODEX_HOME inside and returns env for it.
func codexHome(t testing.TB) (home string, env []string) {
	t.Helper()
	home = t.TempDir()
	ch := filepath.Join(home, ".codex")
	if err := os.MkdirAll(ch, 0o700); err != nil {
		t.Fatal(err)
	}
	return home, []string{"HOME=" + home, "CODEX_HOME=" + ch, "PATH=/usr/local/bin:/usr/bin:/bin"}
}

// gitRepo makes a git repository with one commit in a temp dir.
func gitRepo(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "init"},
	} {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	return dir
}

// readTestdata reads testdata/codex/<name> from the repository root.
func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "codex", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
