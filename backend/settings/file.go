package settings

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sync"

	"github.com/boof-runner/boof-runner/backend/task"
)

// File is settings.json in a data root. Loading never writes the file;
// Set and Save write it atomically (temp file + rename) and keep keys this
// version does not know. Every change takes an exclusive lock on a lock file
// next to it (settings.json.lock), re-reads the file under that lock and
// writes before releasing it, so concurrent writers in this and other
// processes never lose each other's changes. Reads refuse anything but a
// regular file of at most MaxFileSize bytes (a named pipe, a device, a
// folder) without blocking on it; a change reads a larger one (up to 16
// MiB, so its long values can be unset) but never writes one, and Reset
// moves any file no reader accepts aside.
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
				return nil, f.unknownKey(key)
			}
			if v, ok = m[p]; !ok {
				if knownKey(parts, f.cat.Configurable) {
					return nil, &UnknownKeyError{Key: key, NotSet: true}
				}
				return nil, f.unknownKey(key)
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
// ErrMalformed when the file cannot be parsed (fix it, save from the UI or
// Reset it), *ValidationError for invalid values, *TooLargeError when the
// file would grow past MaxFileSize, or a wrapped write error.
func (f *File) Set(key, value string) (Settings, error) {
	parts, err := splitKey(key)
	if err != nil {
		return Settings{}, err
	}
	if !knownKey(parts, f.cat.Configurable) {
		return Settings{}, f.unknownKey(key)
	}
	v := parseValue(value)
	f.mu.Lock()
	defer f.mu.Unlock()
	unlock, err := f.lock()
	if err != nil {
		return Settings{}, err
	}
	defer unlock()
	raw, err := f.readRawForChange()
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
// a *ValidationError for invalid settings or a *TooLargeError for a file
// that would grow past MaxFileSize (changing nothing either way), or a
// wrapped write error.
func (f *File) Save(s Settings) error {
	s.catalog = f.cat
	if err := s.Validate(); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	unlock, err := f.lock()
	if err != nil {
		return err
	}
	defer unlock()
	raw, err := f.readRawForChange()
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

// SaveChanges writes the keys whose values differ between base (the
// settings the user was shown) and next (what they saved) onto the file as
// it is now, read under the lock: a key that another writer changed
// meanwhile and this save did not touch keeps the other writer's value. A
// value equal in base and next is never written. It returns a
// *ValidationError for invalid settings or a *TooLargeError for a file
// that would grow past MaxFileSize (changing nothing either way), or a
// wrapped write error; a malformed file is replaced, as by Save.
func (f *File) SaveChanges(base, next Settings) error {
	next.catalog = f.cat
	if err := next.Validate(); err != nil {
		return err
	}
	bt, err := toTree(base)
	if err != nil {
		return err
	}
	nt, err := toTree(next)
	if err != nil {
		return err
	}
	var changes []change
	diffTrees(nil, bt, nt, &changes)
	f.mu.Lock()
	defer f.mu.Unlock()
	unlock, err := f.lock()
	if err != nil {
		return err
	}
	defer unlock()
	raw, err := f.readRawForChange()
	if err != nil {
		raw = map[string]any{}
	}
	for _, c := range changes {
		if err := setPath(raw, c.path, c.value); err != nil {
			return err
		}
	}
	if _, err := f.effective(raw); err != nil {
		return err
	}
	return f.write(raw)
}

// change is one key to set (value nil: delete).
type change struct {
	path  []string
	value any
}

// diffTrees appends the leaves (and whole subtrees added or removed) that
// differ from a to b.
func diffTrees(prefix []string, a, b map[string]any, out *[]change) {
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	for k := range keys {
		path := append(append([]string{}, prefix...), k)
		av, bv := a[k], b[k]
		am, aok := av.(map[string]any)
		bm, bok := bv.(map[string]any)
		switch {
		case aok && bok:
			diffTrees(path, am, bm, out)
		case !reflect.DeepEqual(av, bv):
			*out = append(*out, change{path: path, value: bv})
		}
	}
}
