package taskmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Limits on what a frontmatter value may expand to when it is kept as an
// unknown field (YAML aliases can repeat a node many times).
const (
	maxValueNodes = 100_000
	maxValueDepth = 64
)

// resolve follows aliases.
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	n = resolve(n)
	return n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null")
}

// text reads a scalar as text; null is "".
func text(n *yaml.Node) (string, error) {
	n = resolve(n)
	if isNull(n) {
		return "", nil
	}
	if n.Kind != yaml.ScalarNode {
		return "", errors.New("must be text, not a list or a map")
	}
	return n.Value, nil
}

// whole reads a whole number (a quoted one too); null is 0.
func whole(n *yaml.Node) (int64, error) {
	s, err := text(n)
	if err != nil || s == "" {
		return 0, err
	}
	v, err := strconv.ParseInt(strings.ReplaceAll(s, "_", ""), 0, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a whole number", clip(s))
	}
	return v, nil
}

// integer is whole within int range.
func integer(n *yaml.Node) (int, error) {
	v, err := whole(n)
	if err != nil {
		return 0, err
	}
	if v < math.MinInt32 || v > math.MaxInt32 {
		return 0, fmt.Errorf("%d is out of range", v)
	}
	return int(v), nil
}

// number reads a number (cost); null is 0.
func number(n *yaml.Node) (float64, error) {
	s, err := text(n)
	if err != nil || s == "" {
		return 0, err
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, fmt.Errorf("%q is not a number", clip(s))
	}
	return v, nil
}

// boolean reads true or false (quoted too); null is false.
func boolean(n *yaml.Node) (bool, error) {
	s, err := text(n)
	if err != nil || s == "" {
		return false, err
	}
	switch strings.ToLower(s) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("%q is not true or false", clip(s))
}

// timeLayouts are the forms a timestamp may take: RFC 3339 (this app, and
// JavaScript's toISOString), without a zone (UTC), with a space, a date.
var timeLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999", "2006-01-02"}

// timestamp reads a time; null and "" are the zero time. A whole number is
// Unix milliseconds.
func timestamp(n *yaml.Node) (time.Time, error) {
	s, err := text(n)
	if err != nil || s == "" {
		return time.Time{}, err
	}
	for _, l := range timeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.UTC(), nil
		}
	}
	if ms, err := strconv.ParseInt(s, 10, 64); err == nil && ms >= 0 && ms < 1<<50 {
		return time.UnixMilli(ms).UTC(), nil
	}
	return time.Time{}, fmt.Errorf("%q is not a time (RFC 3339, like 2026-01-02T15:04:05Z)", clip(s))
}

func optTimestamp(n *yaml.Node) (*time.Time, error) {
	t, err := timestamp(n)
	if err != nil || t.IsZero() {
		return nil, err
	}
	return &t, nil
}

// texts reads a list of text; null is an empty list and one text is a list
// of one (split at commas when split is set).
func texts(n *yaml.Node, split bool) ([]string, error) {
	n = resolve(n)
	if isNull(n) {
		return []string{}, nil
	}
	if n.Kind == yaml.ScalarNode {
		if !split {
			return []string{n.Value}, nil
		}
		out := []string{}
		for _, p := range strings.Split(n.Value, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
		return out, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, errors.New("must be a list")
	}
	out := make([]string, 0, len(n.Content))
	for _, c := range n.Content {
		s, err := text(c)
		if err != nil {
			return nil, fmt.Errorf("item %d: %w", len(out)+1, err)
		}
		out = append(out, s)
	}
	return out, nil
}

// pairs returns a mapping's key/value nodes; null is none.
func pairs(n *yaml.Node) ([][2]*yaml.Node, error) {
	n = resolve(n)
	if isNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, errors.New("must be a map")
	}
	out := make([][2]*yaml.Node, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		out = append(out, [2]*yaml.Node{n.Content[i], n.Content[i+1]})
	}
	return out, nil
}

// plain turns a node into a value encoding/json writes and reads back the
// same: null, bool, int64, float64 (finite, not integral), string, list,
// map. Aliases are followed within the node budget.
func plain(n *yaml.Node, budget *int, depth int) (any, error) {
	if *budget--; *budget < 0 || depth > maxValueDepth {
		return nil, errors.New("value is too large or too deeply nested")
	}
	n = resolve(n)
	if n == nil {
		return nil, nil
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return plain(n.Content[0], budget, depth+1)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := plain(c, budget, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		out := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := resolve(n.Content[i])
			key := ""
			if k != nil && k.Kind == yaml.ScalarNode {
				key = k.Value
			} else {
				kv, err := plain(k, budget, depth+1)
				if err != nil {
					return nil, err
				}
				b, _ := json.Marshal(kv)
				key = string(b)
			}
			v, err := plain(n.Content[i+1], budget, depth+1)
			if err != nil {
				return nil, err
			}
			out[key] = v
		}
		return out, nil
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return nil, nil
		case "!!bool":
			if b, err := boolean(n); err == nil {
				return b, nil
			}
		case "!!int":
			if v, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64); err == nil {
				return v, nil
			}
		case "!!float":
			if f, err := strconv.ParseFloat(n.Value, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
				if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
					return int64(f), nil // 2.0 and -0.0 read back as 2 and 0
				}
				return f, nil
			}
		}
		return n.Value, nil
	}
	return nil, errors.New("unsupported YAML value")
}
