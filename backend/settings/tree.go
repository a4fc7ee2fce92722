package settings

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// toTree turns a value into a generic JSON tree.
func toTree(v any) (map[string]any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode settings: %w", err)
	}
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("encode settings: %w", err)
	}
	return m, nil
}

// merge returns base with over laid on top: objects merge key by key,
// anything else in over replaces; a null in over leaves base's value.
func merge(base, over map[string]any) map[string]any {
	out := make(map[string]any, len(base)+len(over))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range over {
		if v == nil {
			continue
		}
		bm, bok := out[k].(map[string]any)
		om, ook := v.(map[string]any)
		if bok && ook {
			out[k] = merge(bm, om)
			continue
		}
		out[k] = v
	}
	return out
}

// splitKey splits a dotted key, rejecting empty segments.
func splitKey(key string) ([]string, error) {
	parts := strings.Split(key, ".")
	for _, p := range parts {
		if p == "" {
			return nil, &UnknownKeyError{Key: key}
		}
	}
	return parts, nil
}

// schema lists the keys Set accepts, derived from the json tags of
// Settings (keyTree), so a field added there is a key at once; "*" matches
// any one segment and a nil value means a leaf. Under "tools" it holds only
// "*": knownKey accepts the configurable tools there.
var schema = keyTree(reflect.TypeFor[Settings]()).(map[string]any)

// keyTree is the key tree of a settings type as encoding/json writes it: a
// struct is an object of its exported fields under their json names
// (untagged embedded structs lend theirs, "-" is not stored), a pointer is
// what it points to, a map is an object whose keys are the user's ("*"),
// and anything else (scalars, lists) is a leaf, nil.
func keyTree(t reflect.Type) any {
	switch t.Kind() {
	case reflect.Pointer:
		return keyTree(t.Elem())
	case reflect.Map:
		return map[string]any{"*": keyTree(t.Elem())}
	case reflect.Struct:
		out := map[string]any{}
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			switch {
			case name == "-":
			case f.Anonymous && name == "" && ft.Kind() == reflect.Struct:
				maps.Copy(out, keyTree(ft).(map[string]any))
			case !f.IsExported():
			case name == "":
				out[f.Name] = keyTree(f.Type)
			default:
				out[name] = keyTree(f.Type)
			}
		}
		return out
	}
	return nil
}

// knownKey reports whether parts is a key (or object) of the schema, where
// the tools under "tools" are the configurable ones.
func knownKey(parts []string, configurable []string) bool {
	if len(parts) > 1 && parts[0] == "tools" && !slices.Contains(configurable, parts[1]) {
		return false
	}
	var node any = schema
	for _, p := range parts {
		m, ok := node.(map[string]any)
		if !ok {
			return false
		}
		next, ok := m[p]
		if !ok {
			if next, ok = m["*"]; !ok {
				return false
			}
		}
		node = next
	}
	return true
}

// parseValue reads a JSON value; text that is not JSON is a string.
func parseValue(text string) any {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return text
	}
	return v
}

// setPath sets (or with nil deletes) the value at parts, creating objects
// on the way. It fails when a value on the way is not an object.
func setPath(root map[string]any, parts []string, v any) error {
	m := root
	for i, p := range parts[:len(parts)-1] {
		next, ok := m[p]
		if !ok || next == nil {
			if v == nil {
				return nil
			}
			nm := map[string]any{}
			m[p] = nm
			m = nm
			continue
		}
		nm, ok := next.(map[string]any)
		if !ok {
			return &ValidationError{Keys: []*KeyError{{Key: strings.Join(parts[:i+1], "."), Reason: "must be an object (got " + got(next) + ")"}}}
		}
		m = nm
	}
	last := parts[len(parts)-1]
	if v == nil {
		delete(m, last)
		return nil
	}
	m[last] = v
	return nil
}
