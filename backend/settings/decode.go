package settings

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"
)

// decode reads a settings tree (as toTree and merge build it) into s key by
// key, so that a value of the wrong type at one key does not hide another.
// It returns a *KeyError for each such key, whose field keeps the value it
// had in s; keys the schema does not know are ignored.
func decode(tree map[string]any, s *Settings) []*KeyError {
	var bad []*KeyError
	decodeValue("", tree, reflect.ValueOf(s).Elem(), &bad)
	return bad
}

func decodeValue(key string, v any, dst reflect.Value, bad *[]*KeyError) {
	wrong := func() {
		*bad = append(*bad, &KeyError{Key: key, Reason: "must be " + want(dst.Type()) + " (got " + got(v) + ")"})
	}
	switch dst.Kind() {
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			wrong()
			return
		}
		t := dst.Type()
		for i := range t.NumField() {
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
			if sub, ok := m[name]; ok && name != "" && name != "-" {
				decodeValue(join(key, name), sub, dst.Field(i), bad)
			}
		}
	case reflect.Pointer:
		if v == nil {
			dst.SetZero()
			return
		}
		p := reflect.New(dst.Type().Elem())
		if !dst.IsNil() {
			p.Elem().Set(dst.Elem())
		}
		n := len(*bad)
		if decodeValue(key, v, p.Elem(), bad); len(*bad) == n {
			dst.Set(p)
		}
	case reflect.Map:
		if v == nil {
			dst.SetZero()
			return
		}
		m, ok := v.(map[string]any)
		if !ok {
			wrong()
			return
		}
		out := reflect.MakeMapWithSize(dst.Type(), len(m))
		for _, k := range slices.Sorted(maps.Keys(m)) {
			e := reflect.New(dst.Type().Elem()).Elem()
			n := len(*bad)
			if decodeValue(join(key, k), m[k], e, bad); len(*bad) == n {
				out.SetMapIndex(reflect.ValueOf(k), e)
			}
		}
		dst.Set(out)
	case reflect.Slice:
		if v == nil {
			dst.SetZero()
			return
		}
		list, ok := v.([]any)
		if !ok {
			wrong()
			return
		}
		out := reflect.MakeSlice(dst.Type(), len(list), len(list))
		for i, e := range list {
			if !leaf(e, out.Index(i)) {
				*bad = append(*bad, &KeyError{Key: key, Reason: fmt.Sprintf("must be %s (got %s at position %d)", want(dst.Type()), got(e), i+1)})
				return
			}
		}
		dst.Set(out)
	default:
		if !leaf(v, dst) {
			wrong()
		}
	}
}

// leaf decodes a JSON scalar into dst, reporting whether it fit.
func leaf(v any, dst reflect.Value) bool {
	b, err := json.Marshal(v)
	if err != nil {
		return false
	}
	p := reflect.New(dst.Type())
	if err := json.Unmarshal(b, p.Interface()); err != nil {
		return false
	}
	dst.Set(p.Elem())
	return true
}

func join(key, name string) string {
	if key == "" {
		return name
	}
	return key + "." + name
}

// want names a Go type in the terms of a settings.json author.
func want(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return want(t.Elem())
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice:
		if w := want(t.Elem()); strings.HasPrefix(w, "a ") {
			return "a list of " + strings.TrimPrefix(w, "a ") + "s"
		}
		return "a list"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "a value of another type"
}

// got shows a JSON value briefly: scalars as written, a list or an object
// by its kind.
func got(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "a list"
	case string:
		if utf8.RuneCountInString(v) > 40 {
			v = string([]rune(v)[:40]) + "…"
		}
		return fmt.Sprintf("%q", v)
	}
	return fmt.Sprint(v)
}

// hasKey reports whether keys names key.
func hasKey(keys []*KeyError, key string) bool {
	return slices.ContainsFunc(keys, func(k *KeyError) bool { return k.Key == key })
}

// malformedProblem completes "the settings file <path> …" for a JSON
// syntax error.
func malformedProblem(err error) string {
	return "is not valid JSON (" + err.Error() + ")"
}
