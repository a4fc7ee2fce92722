// Command benchtable reads `go test -bench` output (and lines in the same
// format printed by scripts/bench.sh for what is measured outside Go) and
// prints the one benchmark table of `make bench`: each row's figure, its
// goal and whether it holds.
//
//	go run ./scripts/benchtable [-o out/bench.md] FILE...
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
)

func main() {
	out := flag.String("o", "", "also write the table to this file")
	flag.Parse()
	var results map[string]map[string]float64
	var err error
	if flag.NArg() == 0 {
		results, err = parse(os.Stdin)
	} else {
		results = map[string]map[string]float64{}
		for _, name := range flag.Args() {
			var f *os.File
			if f, err = os.Open(name); err != nil {
				break
			}
			var r map[string]map[string]float64
			r, err = parse(f)
			f.Close()
			for k, v := range r {
				results[k] = v
			}
			if err != nil {
				break
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
	table := render(rows, results)
	fmt.Print(table)
	if *out != "" {
		if err := os.WriteFile(*out, []byte(table), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "benchtable:", err)
			os.Exit(1)
		}
	}
}

// procSuffix is the -GOMAXPROCS suffix go test appends to a benchmark name.
var procSuffix = regexp.MustCompile(`-\d+$`)

// parse reads benchmark result lines ("BenchmarkX-2  5  123 ns/op  1.1 ratio")
// into name → metric → value; other lines are ignored. A later line of the
// same name replaces an earlier one.
func parse(r io.Reader) (map[string]map[string]float64, error) {
	res := map[string]map[string]float64{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") || len(f)%2 != 0 {
			continue
		}
		if _, err := strconv.Atoi(f[1]); err != nil {
			continue
		}
		m := map[string]float64{}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				m = nil
				break
			}
			m[f[i+1]] = v
		}
		if m != nil {
			res[procSuffix.ReplaceAllString(f[0], "")] = m
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read results: %w", err)
	}
	return res, nil
}

// render prints the table in Markdown, then a one-line summary.
func render(rs []row, results map[string]map[string]float64) string {
	var b strings.Builder
	b.WriteString("| id | what | measured | figure | goal | holds |\n|---|---|---|---|---|---|\n")
	held, missed, absent := 0, 0, 0
	for _, r := range rs {
		m, ok := results[r.bench]
		v, has := m[r.metric]
		if !ok || !has {
			absent++
			fmt.Fprintf(&b, "| %s | %s | — | — | %s | not measured |\n", r.id, r.what, goalText(r))
			continue
		}
		fig := v + r.offset
		holds := fig <= r.goal
		if !r.atMost {
			holds = fig >= r.goal
		}
		word := "no"
		switch {
		case r.info:
			word = "(context)"
		case holds:
			word, held = "yes", held+1
		default:
			missed++
		}
		var parts []string
		for _, d := range r.detail {
			if dv, ok := m[d]; ok {
				parts = append(parts, num(dv)+" "+d)
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s %s | %s | %s |\n", r.id, r.what, strings.Join(parts, ", "), num(fig), r.unit, goalText(r), word)
	}
	fmt.Fprintf(&b, "\n%d rows hold, %d do not, %d not measured.\n", held, missed, absent)
	return b.String()
}

func goalText(r row) string {
	if r.info {
		return "—"
	}
	op := "≥"
	if r.atMost {
		op = "≤"
	}
	return op + " " + num(r.goal) + " " + r.unit
}

// num prints a figure with three significant digits, no exponent.
func num(v float64) string {
	switch a := max(v, -v); {
	case a >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	default:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
}
