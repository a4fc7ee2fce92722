package taskmd

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// front is the frontmatter being read into a document.
type front struct {
	d         *Doc
	hasStatus bool
	seenUsage bool
	extra     map[string]any
	budget    int
	// kept names the unknown keys found (not those read back from "extra").
	kept []string
}

// splitFront returns the frontmatter's text and the index of the first body
// line. The file must start with a "---" line (a UTF-8 byte order mark
// before it is allowed); the frontmatter ends at the next "---" or "..."
// line.
func splitFront(lines []string) (string, int, error) {
	if len(lines) == 0 || structural(strings.TrimPrefix(lines[0], "\ufeff")) != "---" {
		return "", 0, fmt.Errorf("%w: line 1: the file must start with a --- frontmatter line", ErrFormat)
	}
	for i := 1; i < len(lines); i++ {
		if l := structural(lines[i]); l == "---" || l == "..." {
			return strings.Join(lines[1:i], "\n"), i + 1, nil
		}
	}
	return "", 0, fmt.Errorf("%w: line %d: frontmatter is not closed with ---", ErrFormat, len(lines))
}

// readFront decodes the frontmatter with YAML and reads every key into d:
// known keys (in either spelling) into the task, unknown keys kept in
// d.Task.Extra and named in d.Notes.
func readFront(d *Doc, src string) error {
	if !utf8.ValidString(src) {
		return fmt.Errorf("%w: the frontmatter is not valid UTF-8 text", ErrFormat)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		return fmt.Errorf("%w: frontmatter: %s", ErrFormat, oneLineMsg(err.Error()))
	}
	p := &front{d: d, extra: map[string]any{}, budget: maxValueNodes}
	var root *yaml.Node
	if len(doc.Content) > 0 {
		root = resolve(doc.Content[0])
	}
	if root != nil && root.Kind != yaml.MappingNode && !isNull(root) {
		return fmt.Errorf("%w: the frontmatter must be \"key: value\" lines", ErrFormat)
	}
	ps, _ := pairs(root)
	seen := map[string]string{}
	for _, kv := range ps {
		k := resolve(kv[0])
		if k == nil || k.Kind != yaml.ScalarNode {
			return fmt.Errorf("%w: line %d: a key must be a word", ErrFormat, kv[0].Line+1)
		}
		name := snake(k.Value)
		if a, ok := aliases[name]; ok {
			name = a
		}
		if first, dup := seen[name]; dup {
			return fmt.Errorf("%w: line %d: key %q is given twice (also as %q)", ErrFormat, k.Line+1, clip(k.Value), clip(first))
		}
		seen[name] = k.Value
		set, known := fields[name]
		if !known {
			if err := p.unknown(k.Value, kv[1]); err != nil {
				return fmt.Errorf("%w: line %d: %s: %s", ErrFormat, k.Line+1, clip(k.Value), err)
			}
			continue
		}
		if err := set(p, kv[1]); err != nil {
			return fmt.Errorf("%w: line %d: %s: %w", ErrFormat, k.Line+1, clip(k.Value), err)
		}
	}
	if !p.hasStatus {
		return fmt.Errorf("%w: frontmatter has no status", ErrFormat)
	}
	for _, k := range p.kept {
		d.Notes = append(d.Notes, fmt.Sprintf("unknown key %q kept", k))
	}
	return p.setExtra()
}

// unknown keeps a value this version does not know under key.
func (p *front) unknown(key string, n *yaml.Node) error {
	if _, dup := p.extra[key]; dup {
		return fmt.Errorf("unknown key %q is given twice (also in extra)", key)
	}
	v, err := plain(n, &p.budget, 0)
	if err != nil {
		return err
	}
	p.extra[key] = v
	p.kept = append(p.kept, key)
	return nil
}

// extraField reads back "extra", the unknown fields an earlier import kept.
func (p *front) extraField(n *yaml.Node) error {
	v, err := plain(n, &p.budget, 0)
	if err != nil {
		return err
	}
	if v == nil {
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("must be a map")
	}
	for k, val := range m {
		if _, dup := p.extra[k]; dup {
			return fmt.Errorf("key %q is given twice (also outside extra)", k)
		}
		p.extra[k] = val
	}
	return nil
}

// addExtra keeps a value found outside the frontmatter (an unknown section).
func (d *Doc) addExtra(key string, v any) error {
	m := map[string]any{}
	if len(d.Task.Extra) > 0 {
		if err := json.Unmarshal(d.Task.Extra, &m); err != nil {
			return err
		}
	}
	if _, dup := m[key]; dup {
		return fmt.Errorf("%q is given twice", key)
	}
	m[key] = v
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	d.Task.Extra = b
	return nil
}

func (p *front) setExtra() error {
	if len(p.extra) == 0 {
		p.d.Task.Extra = nil
		return nil
	}
	b, err := json.Marshal(p.extra)
	if err != nil {
		return fmt.Errorf("%w: unknown keys: %v", ErrFormat, err)
	}
	p.d.Task.Extra = b
	return nil
}

func oneLineMsg(s string) string { return strings.Join(strings.Fields(s), " ") }
