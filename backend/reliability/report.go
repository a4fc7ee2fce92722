// Package reliability holds the reliability report: each row is a Go test
// (build tag reliability) in this package that measures one figure and
// records it with Record; TestMain renders every recorded row as one table
// (out/reliability.md). `make test` runs the short version (seconds per
// row), `make reliability` the full one (BOOF_RELIABILITY_FULL=1).
package reliability

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/boof-runner/boof-runner/backend/userfile"
)

// Row is one line of the report.
type Row struct {
	// ID is the row's id (R1 … R7), with a suffix for sub-rows (R1.a).
	ID string `json:"id"`
	// Test says what was done.
	Test string `json:"test"`
	// Figure is what was measured, in words and numbers.
	Figure string `json:"figure"`
	// Goal is the figure the row must meet.
	Goal string `json:"goal"`
	// Holds is true when the figure meets the goal.
	Holds bool `json:"holds"`
	// NotRun, when set, says why the row could not run on this machine; such
	// a row is never a pass.
	NotRun string `json:"not_run,omitempty"`
}

// Result is the row's verdict column.
func (r Row) Result() string {
	switch {
	case r.NotRun != "":
		return "not run: " + r.NotRun
	case r.Holds:
		return "holds"
	default:
		return "FAILS"
	}
}

// Full reports whether the full (long) version runs.
func Full() bool { return os.Getenv("BOOF_RELIABILITY_FULL") == "1" }

var mu sync.Mutex

// Record appends a row to the file named by BOOF_RELIABILITY_OUT (JSON
// lines); without it the row is only returned. It is safe for concurrent use.
func Record(r Row) error {
	path := os.Getenv("BOOF_RELIABILITY_OUT")
	if path == "" {
		return nil
	}
	data, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("record row %s: %w", r.ID, err)
	}
	mu.Lock()
	defer mu.Unlock()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("record row %s: %w", r.ID, err)
	}
	if _, err := f.Write(append(data, '\n')); err != nil {
		f.Close()
		return fmt.Errorf("record row %s: %w", r.ID, err)
	}
	return f.Close()
}

// Load reads the rows recorded in path, in order.
func Load(path string) ([]Row, error) {
	data, err := userfile.ReadKept(path)
	if err != nil {
		return nil, fmt.Errorf("load rows: %w", err)
	}
	var rows []Row
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if line == "" {
			continue
		}
		var r Row
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			return nil, fmt.Errorf("load rows: %w", err)
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// Table renders rows as a markdown table.
func Table(rows []Row, full bool) string {
	var b strings.Builder
	mode := "short"
	if full {
		mode = "full"
	}
	fmt.Fprintf(&b, "# Reliability report (%s run)\n\n", mode)
	b.WriteString("| id | test | figure | goal | result |\n|---|---|---|---|---|\n")
	cell := func(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "|", "\\|"), "\n", " ") }
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", cell(r.ID), cell(r.Test), cell(r.Figure), cell(r.Goal), cell(r.Result()))
	}
	return b.String()
}
