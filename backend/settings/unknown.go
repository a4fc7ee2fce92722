package settings

import (
	"maps"
	"slices"
	"strings"
)

// UnknownKeyError is a dotted key that names no setting (Set, Get), or a
// setting that has no value (Get of an unset observer). errors.Is matches
// ErrUnknownKey.
type UnknownKeyError struct {
	// Key is the key as the user wrote it.
	Key string
	// Suggestion is the closest known key, "" when none is close.
	Suggestion string
	// NotSet is true for a known key without a value.
	NotSet bool
}

// Error returns "unknown settings key <key>" with the suggestion, or
// "settings key <key> is not set".
func (e *UnknownKeyError) Error() string {
	switch {
	case e.NotSet:
		return "settings key " + e.Key + " is not set"
	case e.Suggestion != "":
		return ErrUnknownKey.Error() + " " + e.Key + " (did you mean " + e.Suggestion + "?)"
	}
	return ErrUnknownKey.Error() + " " + e.Key
}

// Unwrap lets errors.Is match ErrUnknownKey.
func (e *UnknownKeyError) Unwrap() error { return ErrUnknownKey }

// unknownKey is the error for a key outside the schema.
func (f *File) unknownKey(key string) error {
	return &UnknownKeyError{Key: key, Suggestion: Suggest(key, f.cat.Configurable)}
}

// UnknownKey is a key of the user's file that this version does not know.
// It is kept as it is and has no effect.
type UnknownKey struct {
	// Key is its dotted path.
	Key string
	// Suggestion is the closest known key, "" when none is close.
	Suggestion string
}

// UnknownKeys lists the keys of the user's file that the schema does not
// know (a mistyped "runner.concurency", say), in sorted order. Keys under
// a known tool's "env" are the user's variables and never unknown. It
// returns the read errors of Load.
func (f *File) UnknownKeys() ([]UnknownKey, error) {
	raw, err := f.readRaw()
	if err != nil {
		return nil, err
	}
	var out []UnknownKey
	var walk func(prefix []string, m map[string]any)
	walk = func(prefix []string, m map[string]any) {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			parts := append(append([]string{}, prefix...), k)
			if !knownKey(parts, f.cat.Configurable) {
				key := strings.Join(parts, ".")
				out = append(out, UnknownKey{Key: key, Suggestion: Suggest(key, f.cat.Configurable)})
				continue
			}
			if len(parts) == 3 && parts[0] == "tools" && parts[2] == "env" {
				continue
			}
			if sub, ok := m[k].(map[string]any); ok {
				walk(parts, sub)
			}
		}
	}
	walk(nil, raw)
	return out, nil
}

// Suggest returns the known key closest to key (same number of dotted
// segments, at most a third of its letters different, at least 1, at most
// 3), or "" when none is that close. configurable names the tools that may
// appear under "tools".
func Suggest(key string, configurable []string) string {
	parts := strings.Split(key, ".")
	best, bestD := "", 0
	for _, k := range knownKeys(configurable) {
		if strings.Count(k, ".") != len(parts)-1 {
			continue
		}
		d := keyDistance(parts, strings.Split(k, "."))
		if d > 0 && (best == "" || d < bestD) {
			best, bestD = k, d
		}
	}
	if best == "" || bestD > min(max(len(key)/3, 1), 3) {
		return ""
	}
	return best
}

// knownKeys lists every dotted key of the schema, objects included, with
// the configurable tools under "tools" (their env variables excluded).
func knownKeys(configurable []string) []string {
	var out []string
	var walk func(prefix string, node map[string]any)
	walk = func(prefix string, node map[string]any) {
		for _, k := range slices.Sorted(maps.Keys(node)) {
			names := []string{k}
			if k == "*" {
				if prefix != "tools" {
					continue // env variable names are the user's
				}
				names = configurable
			}
			for _, n := range names {
				key := n
				if prefix != "" {
					key = prefix + "." + n
				}
				out = append(out, key)
				if sub, ok := node[k].(map[string]any); ok {
					walk(key, sub)
				}
			}
		}
	}
	walk("", schema)
	return out
}

// keyDistance sums the distances of the segments; a segment of at least 4
// letters that starts a known one ("claude" for "claude-code") counts 1.
func keyDistance(typed, known []string) int {
	d := 0
	for i := range typed {
		a, b := strings.ToLower(typed[i]), strings.ToLower(known[i])
		if a != b && len(a) >= 4 && strings.HasPrefix(b, a) {
			d++
			continue
		}
		d += distance(a, b)
	}
	return d
}

// distance is the Levenshtein distance between a and b, by bytes.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
