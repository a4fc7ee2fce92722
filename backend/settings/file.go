package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/boof-runner/boof-runner/backend/task"
)

// File is settings.json in a data root. Loading never writes the file;
// Set and Save write it atomically (temp file + rename) and keep keys this
// version does not know. It is safe for concurrent use within a process.
type File struct {
	path string
	cat  Catalog
	mu   sync.Mutex
}

// NewFile returns the settings file at path; cat names the agent tools
// roles may use, and which are installed, for the role defaults.
func NewFile(path string, cat Catalog) *File { return &File{path: path, cat: cat} }

// Catalog returns the tools the file's settings may use.
func (f *File) Catalog() Catalog { return f.cat }

// Path returns the file's path.
func (f *File) Path() string { return f.path }

// Load returns the effective settings. A missing file gives the defaults.
// A malformed file (*MalformedError) or invalid values (*ValidationError,
// wrapping ErrInvalid) give the defaults together with the error; the file is left
// untouched either way. Other read errors are returned wrapped, with defaults.
func (f *File) Load() (Settings, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	raw, err := f.readRaw()
	if err != nil {
		return Defaults(f.cat), err
	}
	s, err := f.effective(raw)
	if err != nil {
		return Defaults(f.cat), err
	}
	return s, nil
}

// readRaw returns the user's document (empty when the file is missing).
func (f *File) readRaw() (map[string]any, error) {
	b, err := os.ReadFile(f.path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]any{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read settings: %w", err)
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return map[string]any{}, nil
	}
	var raw map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		return nil, &MalformedError{Path: f.path, Problem: malformedProblem(err)}
	}
	if dec.More() {
		return nil, &MalformedError{Path: f.path, Problem: "has text after the JSON object"}
	}
	if raw == nil {
		return nil, &MalformedError{Path: f.path, Problem: "is not a JSON object"}
	}
	return raw, nil
}

// effective merges raw over the defaults, decodes and validates it. It
// returns a *ValidationError naming every key of the wrong type or with a
// bad value.
func (f *File) effective(raw map[string]any) (Settings, error) {
	merged, err := f.mergedTree(raw)
	if err != nil {
		return Settings{}, err
	}
	s := Defaults(f.cat)
	bad := decode(merged, &s)
	s.DefaultTool, s.catalog = f.cat.Default(), f.cat
	for _, k := range s.problems() {
		if !hasKey(bad, k.Key) { // a value of the wrong type kept its default
			bad = append(bad, k)
		}
	}
	if err := invalid(bad); err != nil {
		return Settings{}, err
	}
	return s, nil
}

func (f *File) mergedTree(raw map[string]any) (map[string]any, error) {
	def, err := toTree(Defaults(f.cat))
	if err != nil {
		return nil, err
	}
	return merge(def, raw), nil
}

// Get returns the effective value at a dotted key as JSON ("" = all
// settings). It returns ErrUnknownKey when the key has no value, and the
// load errors of Load (without falling back to defaults).
func (f *File) Get(key string) (json.RawMessage, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	raw, err := f.readRaw()
	if err != nil {
		return nil, err
	}
	if _, err := f.effective(raw); err != nil {
		return nil, err
	}
	tree, err := f.mergedTree(raw)
	if err != nil {
		return nil, err
	}
	var v any = tree
	if key != "" {
		parts, err := splitKey(key)
		if err != nil {
			return nil, err
		}
		for _, p := range parts {
			m, ok := v.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%w: %s", ErrUnknownKey, key)
			}
			if v, ok = m[p]; !ok {
				return nil, fmt.Errorf("%w: %s (not set)", ErrUnknownKey, key)
			}
		}
	}
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode settings: %w", err)
	}
	return out, nil
}

// Set sets the dotted key to value, a JSON text; a bare word that is not
// JSON is taken as a string, and null unsets the key (back to its
// default). The result is validated as a whole; on any error the file is
// unchanged. It returns ErrUnknownKey for a key outside the schema,
// ErrMalformed when the file cannot be parsed (fix it or save from the UI),
// *ValidationError for invalid values, or a wrapped write error.
func (f *File) Set(key, value string) (Settings, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	parts, err := splitKey(key)
	if err != nil {
		return Settings{}, err
	}
	if !knownKey(parts, f.cat.Configurable) {
		return Settings{}, fmt.Errorf("%w: %s", ErrUnknownKey, key)
	}
	v := parseValue(value)
	raw, err := f.readRaw()
	if err != nil {
		return Settings{}, err
	}
	if err := setPath(raw, parts, v); err != nil {
		return Settings{}, err
	}
	s, err := f.effective(raw)
	if err != nil {
		return Settings{}, err
	}
	if err := f.write(raw); err != nil {
		return Settings{}, err
	}
	return s, nil
}

// Save writes s as the user's settings, keeping keys this version does not
// know. It replaces a malformed file (the user asked to save). It returns
// a *ValidationError for invalid settings (changing nothing) or a wrapped
// write error.
func (f *File) Save(s Settings) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	s.catalog = f.cat
	if err := s.Validate(); err != nil {
		return err
	}
	raw, err := f.readRaw()
	if err != nil {
		raw = map[string]any{}
	}
	tree, err := toTree(s)
	if err != nil {
		return err
	}
	raw = merge(raw, tree)
	if s.Roles.Observer == nil {
		if roles, ok := raw["roles"].(map[string]any); ok {
			delete(roles, string(task.RoleObserver))
		}
	}
	if _, err := f.effective(raw); err != nil {
		return err
	}
	return f.write(raw)
}

// write replaces the file atomically.
func (f *File) write(raw map[string]any) error {
	b, err := json.MarshalIndent(raw, "", "  ")
	if err != nil {
		return fmt.Errorf("encode settings: %w", err)
	}
	b = append(b, '\n')
	dir := filepath.Dir(f.path)
	tmp, err := os.CreateTemp(dir, ".settings-*.json")
	if err != nil {
		return fmt.Errorf("save settings: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("save settings: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("save settings: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("save settings: %w", err)
	}
	if err := os.Rename(tmp.Name(), f.path); err != nil {
		return fmt.Errorf("save settings: %w", err)
	}
	return nil
}
