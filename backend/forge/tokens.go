package forge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"

	"github.com/boof-runner/boof-runner/backend/atomicfile"
	"github.com/boof-runner/boof-runner/backend/names"
	"github.com/boof-runner/boof-runner/backend/userfile"
)

// Tokens finds the API token of a forge host: the host's environment
// variable first (Project.TokenEnv), then the OS keyring (Secret
// Service), then the token file. Store puts a token in the keyring where
// one can take it, else in the file (mode 0600). A token is never logged,
// shown or put in an error.
type Tokens struct {
	// Getenv reads the environment (nil: os.Getenv).
	Getenv func(string) string
	// Keyring is the Secret Service; nil for none.
	Keyring *Keyring
	// File is the token file (<data root>/forge-tokens.json).
	File string
}

// TokenSource says where a token was found or stored.
type TokenSource struct {
	// Kind is "env", "keyring" or "file".
	Kind string `json:"kind"`
	// Name is the variable or the file's path ("" for the keyring).
	Name string `json:"name,omitempty"`
}

// String names the source for a person: "GITHUB_TOKEN", "the keyring",
// "the token file /path".
func (s TokenSource) String() string {
	switch s.Kind {
	case "env":
		return s.Name
	case "keyring":
		return "the keyring"
	}
	return "the token file " + s.Name
}

// tokenFile is the file's content.
type tokenFile struct {
	Tokens map[string]string `json:"tokens"`
}

// Lookup returns the token of p's host and where it came from, or a
// *NoTokenError naming the variable to set.
func (t Tokens) Lookup(ctx context.Context, p Project) (string, TokenSource, error) {
	getenv := t.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if v := strings.TrimSpace(getenv(p.TokenEnv)); v != "" {
		return v, TokenSource{Kind: "env", Name: p.TokenEnv}, nil
	}
	if t.Keyring != nil {
		if v, err := t.Keyring.Get(ctx, p.Host); err == nil && v != "" {
			return v, TokenSource{Kind: "keyring"}, nil
		}
	}
	if t.File != "" {
		f, err := t.read()
		if err != nil {
			return "", TokenSource{}, err
		}
		if v := f.Tokens[strings.ToLower(p.Host)]; v != "" {
			return v, TokenSource{Kind: "file", Name: t.File}, nil
		}
	}
	return "", TokenSource{}, &NoTokenError{Host: p.Host, Kind: p.Kind, Env: p.TokenEnv}
}

// Store keeps token for host: in the keyring when a Secret Service takes
// it (and then out of the file), else in the token file. It returns where.
func (t Tokens) Store(ctx context.Context, host, token string) (TokenSource, error) {
	host = strings.ToLower(strings.TrimSpace(host))
	token = strings.TrimSpace(token)
	if !names.Host(host) {
		return TokenSource{}, &BadHostError{Host: host}
	}
	if !validToken(token) {
		return TokenSource{}, ErrBadToken
	}
	if t.Keyring != nil {
		if err := t.Keyring.Set(ctx, host, token); err == nil {
			_, err := t.setFile(host, "")
			return TokenSource{Kind: "keyring"}, err
		}
	}
	if t.File == "" {
		return TokenSource{}, fmt.Errorf("store token: %w", ErrKeyringUnavailable)
	}
	_, err := t.setFile(host, token)
	return TokenSource{Kind: "file", Name: t.File}, err
}

// validToken: a token is one word of printable ASCII (every forge's
// tokens are), so no control character or escape reaches a header, the
// keyring or the file.
func validToken(token string) bool {
	if token == "" || len(token) > maxToken {
		return false
	}
	for i := 0; i < len(token); i++ {
		if token[i] <= ' ' || token[i] > '~' {
			return false
		}
	}
	return true
}

// maxToken bounds a token (the longest forge tokens are a few hundred bytes).
const maxToken = 4096

// Remove forgets host's token in the keyring and the file, and says
// whether either held one.
func (t Tokens) Remove(ctx context.Context, host string) (bool, error) {
	host = strings.ToLower(strings.TrimSpace(host))
	if !names.Host(host) {
		return false, &BadHostError{Host: host}
	}
	var inKeyring bool
	if t.Keyring != nil {
		var err error
		if inKeyring, err = t.Keyring.Delete(ctx, host); err != nil && !errors.Is(err, ErrKeyringUnavailable) {
			return false, err
		}
	}
	inFile, err := t.setFile(host, "")
	return inKeyring || inFile, err
}

// BadHostError: a host that is no host name (with an optional port).
type BadHostError struct{ Host string }

func (e *BadHostError) Error() string { return fmt.Sprintf("%q is not a host name", e.Host) }

// Hosts lists the hosts the token file holds a token for.
func (t Tokens) Hosts() ([]string, error) {
	f, err := t.read()
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(f.Tokens))
	for h := range f.Tokens {
		out = append(out, h)
	}
	sort.Strings(out)
	return out, nil
}

// ErrBadToken: an empty token, one with white space or a control
// character inside, or one too long to be a token.
var ErrBadToken = errors.New("a token is one word of printable characters")

func (t Tokens) read() (tokenFile, error) {
	f := tokenFile{Tokens: map[string]string{}}
	if t.File == "" {
		return f, nil
	}
	b, err := userfile.ReadKept(t.File)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return f, fmt.Errorf("read the token file: %w", err)
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return f, fmt.Errorf("read the token file %s: it is not the JSON Boof Runner writes", t.File)
	}
	if f.Tokens == nil {
		f.Tokens = map[string]string{}
	}
	return f, nil
}

// setFile sets (or with "" removes) host's token in the file, written
// atomically with mode 0600, and says whether the file changed.
func (t Tokens) setFile(host, token string) (bool, error) {
	if t.File == "" {
		return false, nil
	}
	f, err := t.read()
	if err != nil {
		return false, err
	}
	if token == "" {
		if _, ok := f.Tokens[host]; !ok {
			return false, nil
		}
		delete(f.Tokens, host)
	} else {
		f.Tokens[host] = token
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return false, err
	}
	if err := atomicfile.WriteFileThroughLinks(t.File, append(b, '\n'), 0o600); err != nil { // a linked token file stays linked
		return false, fmt.Errorf("write the token file: %w", err)
	}
	return true, nil
}
