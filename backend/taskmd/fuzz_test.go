package taskmd

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/boof-runner/boof-runner/backend/task"
)

// FuzzParse checks that Parse never panics, never accepts a file with an
// unknown status, and that whatever it accepts survives Write → Parse.
func FuzzParse(f *testing.F) {
	f.Add([]byte("---\nstatus: pending\n---\n## Prompt\n~~~\np\n~~~\n"))
	f.Add([]byte("---\nstatus: done\ntitle: \"t\"\nlabels: [\"a\"]\ntools: {\"developer\": {\"tool\": \"codex\", \"model\": \"m\"}}\n---\n# t\n## Prompt\n~~~~\n~~~\n~~~~\n## Reports\n### Observer report\n#### iteration=1 round=1 verdict=APPROVE\n~~~\nok\n~~~\n## Log\n~~~\n2026-01-01T00:00:00.000Z info \"q\\n\"\n~~~\n"))
	f.Add([]byte("---\nstatus: archived\nprev_status: failed\n---\n## Prompt\n~~~\r\nx\r\n~~~\r\n"))
	f.Add([]byte("---\nstatus: runnin\n---\n"))
	f.Add([]byte("---\nstatus: done\nextra: {\"a\": [1, 2.5, null, true], \"## Notes\": \"x\"}\norigin_id: \"o-1\"\nid: \"x y\"\n---\n## Prompt\n~~~\np\n~~~\n"))
	f.Add([]byte("---\nstatus: archived\nfoo: &a {b: [1, *a]}\n---\n## Prompt\n\nplain\n## Notes\nn\n"))
	files, _ := filepath.Glob(filepath.Join("testdata", "earlier", "*.md"))
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Parse(data)
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("error does not wrap ErrFormat: %v", err)
			}
			return
		}
		if _, err := task.ParseStatus(string(d.Task.Status)); err != nil {
			t.Fatalf("accepted unknown status %q", d.Task.Status)
		}
		var b bytes.Buffer
		if err := Write(&b, d); err != nil {
			t.Fatal(err)
		}
		d2, err := Parse(b.Bytes())
		if err != nil {
			t.Fatalf("own output does not parse: %v\n%s", err, b.Bytes())
		}
		var b2 bytes.Buffer
		Write(&b2, d2)
		if !bytes.Equal(b.Bytes(), b2.Bytes()) {
			t.Fatalf("write/parse not stable:\n%s\n---\n%s", b.Bytes(), b2.Bytes())
		}
	})
}
