//go:build linux && reliability

package reliability

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestMain runs every row, then renders the rows recorded in
// BOOF_RELIABILITY_OUT as out/reliability.md (BOOF_RELIABILITY_TABLE) and
// prints it. A failing row fails its own test; a run with no rows fails.
func TestMain(m *testing.M) {
	code := m.Run()
	removeBinary()
	out := os.Getenv("BOOF_RELIABILITY_OUT")
	if out == "" {
		os.Exit(code)
	}
	rows, err := Load(out)
	if err != nil || len(rows) == 0 {
		fmt.Fprintf(os.Stderr, "reliability: no rows recorded (%v)\n", err)
		os.Exit(1)
	}
	table := Table(rows, Full())
	fmt.Print("\n" + table)
	if path := os.Getenv("BOOF_RELIABILITY_TABLE"); path != "" {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(table), 0o644); err != nil {
			fmt.Fprintf(os.Stderr, "reliability: %v\n", err)
			os.Exit(1)
		}
	}
	os.Exit(code)
}
