package opencode

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/boof-runner/boof-runner/backend/userfile"
)

// ownConfigs reads the configs of the user's that a step keeps: the
// user's own file (userConfigFile), then the project's opencode.jsonc or
// opencode.json at the top of dir, laid over it. opencode is given their
// content, never their paths (with OPENCODE_DISABLE_PROJECT_CONFIG): it
// writes a "$schema" into a config file it reads that has none, which
// would change the user's file, or the project's in the task's work.
// warn says which file could not be read and was left out.
func (t *Tool) ownConfigs(env []string, dir string) (cfg map[string]any, warn string) {
	var files []string
	if f := t.userConfigFile(env); f != "" {
		files = append(files, f)
	}
	for _, n := range []string{"opencode.jsonc", "opencode.json"} {
		p := filepath.Join(dir, n)
		if st, err := os.Stat(p); dir != "" && err == nil && st.Mode().IsRegular() {
			files = append(files, p)
			break
		}
	}
	var warns []string
	for _, f := range files {
		m, err := readUserConfig(f)
		if err != nil {
			warns = append(warns, fmt.Sprintf("%v: the step runs without it", err))
			continue
		}
		if cfg == nil {
			cfg = m
		} else {
			cfg = merge(cfg, m)
		}
	}
	return cfg, strings.Join(warns, "; ")
}

// maxUserConfig bounds the user's config file the adapter reads.
const maxUserConfig = 1 << 20

// readUserConfig reads the user's opencode config file (JSON with
// comments and trailing commas, as opencode accepts) into a map. It
// returns an error for a file that is too large or not such JSON.
func readUserConfig(path string) (map[string]any, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("opencode user config: %w", err)
	}
	if st.Size() > maxUserConfig {
		return nil, fmt.Errorf("opencode user config %s: larger than %d bytes", path, maxUserConfig)
	}
	b, err := userfile.ReadKept(path)
	if err != nil {
		return nil, fmt.Errorf("opencode user config: %w", err)
	}
	var m map[string]any
	if err := json.Unmarshal(stripJSONC(b), &m); err != nil {
		return nil, fmt.Errorf("opencode user config %s: %w", path, err)
	}
	if m == nil {
		return nil, errors.New("opencode user config " + path + ": not an object")
	}
	return m, nil
}

// stripJSONC turns JSON with comments into JSON: it blanks // and /* */
// comments outside strings and drops commas that close an object or array.
func stripJSONC(b []byte) []byte {
	out := make([]byte, 0, len(b))
	inString, escaped := false, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inString:
			out = append(out, c)
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
			out = append(out, c)
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
			out = append(out, '\n')
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			i += 2
			for i+1 < len(b) && (b[i] != '*' || b[i+1] != '/') {
				i++
			}
			i++
			out = append(out, ' ')
		case c == '}' || c == ']':
			out = append(dropTrailingComma(out), c)
		default:
			out = append(out, c)
		}
	}
	return out
}

// dropTrailingComma removes a comma (and the space after it) ending out.
func dropTrailingComma(out []byte) []byte {
	j := len(out) - 1
	for j >= 0 && (out[j] == ' ' || out[j] == '\t' || out[j] == '\n' || out[j] == '\r') {
		j--
	}
	if j >= 0 && out[j] == ',' {
		return append(out[:j], out[j+1:]...)
	}
	return out
}

// merge lays over on base: objects merge key by key, the instructions
// lists add up, anything else of over replaces base's.
func merge(base, over map[string]any) map[string]any {
	out := make(map[string]any, len(base)+len(over))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range over {
		bv, ok := out[k]
		switch {
		case !ok:
			out[k] = v
		case k == "instructions":
			out[k] = append(asList(bv), asList(v)...)
		default:
			bm, bok := bv.(map[string]any)
			om, ook := v.(map[string]any)
			if bok && ook {
				out[k] = merge(bm, om)
			} else {
				out[k] = v
			}
		}
	}
	return out
}

// asList returns v as a list of values (a lone value as a list of one).
func asList(v any) []any {
	switch l := v.(type) {
	case []any:
		return l
	case []string:
		out := make([]any, len(l))
		for i, s := range l {
			out[i] = s
		}
		return out
	case nil:
		return nil
	}
	return []any{v}
}
