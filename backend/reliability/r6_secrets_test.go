//go:build reliability

package reliability

import "testing"

// TestR6Secrets is row R6: the secrets issue's corpus (tokens and keys in
// agent output) through a real run, counting secrets that reach the disk.
// The corpus and the read-only roles come with that issue, which has not
// landed: until it does the row says so and is never a pass.
func TestR6Secrets(t *testing.T) {
	row := Row{ID: "R6", Test: "the secrets issue's corpus through a real run", Goal: "secrets on disk 0",
		NotRun: "the secrets issue (read-only roles and secrets) has not landed"}
	if err := Record(row); err != nil {
		t.Fatal(err)
	}
	t.Skip("not run: " + row.NotRun)
}
