package gemini

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// maxArgBytes is the largest prompt passed as an argument: Linux refuses a
// single argument of 128 KiB or more (MAX_ARG_STRLEN); a larger prompt
// goes through stdin, which gemini -p reads first.
const maxArgBytes = 100 << 10

// maxStdinBytes is the most gemini reads from stdin (it cuts the rest).
const maxStdinBytes = 8 << 20

// Errors for bad requests; Start wraps them.
var (
	// ErrNoDir means the request has no working directory.
	ErrNoDir = errors.New("no working directory")
	// ErrEmptyPrompt means the request has no prompt.
	ErrEmptyPrompt = errors.New("empty prompt")
	// ErrBadText means a prompt or system prompt is not valid UTF-8 or holds a NUL byte.
	ErrBadText = errors.New("prompt is not valid UTF-8 text")
	// ErrPromptTooLong means the prompt is more than gemini reads.
	ErrPromptTooLong = errors.New("prompt too long for gemini")
	// ErrBadSession means the resume session id is not a gemini session id.
	ErrBadSession = errors.New("invalid session id")
	// ErrBadModel means the model id is not usable as a gemini model.
	ErrBadModel = errors.New("invalid model id")
	// ErrInsecureBaseURL means GOOGLE_GEMINI_BASE_URL would send the API
	// key in clear text: http is for localhost only.
	ErrInsecureBaseURL = errors.New("GOOGLE_GEMINI_BASE_URL must be https (http only for localhost)")
)

// sessionRe accepts gemini session ids (UUIDs).
var sessionRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$`)
})

// modelRe accepts model ids such as "gemini-2.5-pro", "auto" or "models/x".
var modelRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,127}$`) })

// stepParams are the inputs of buildArgs.
type stepParams struct {
	prompt, model, resume string
	readDirs              []string
	// policy is the read-only policy file, "" for a step that may edit.
	policy string
}

// invocation is one gemini command line.
type invocation struct {
	args []string
	// stdinPrompt is the prompt to write to stdin ("" when it is an argument).
	stdinPrompt string
}

// buildArgs returns gemini's command line for a step:
//
//	--output-format stream-json --skip-trust --yolo [--policy=FILE] [--model=M]
//	[--resume=ID] [--include-directories=DIR]... --prompt=PROMPT
//
// Values use the --flag=value form so that text starting with a dash is
// never taken for an option. --yolo approves every tool call (nobody is
// there to ask); a read-only step adds a policy that denies gemini's edit
// tools. A prompt too long for an argument goes through stdin with an
// empty --prompt (gemini prepends stdin to it).
func buildArgs(p stepParams) (invocation, error) {
	if strings.TrimSpace(p.prompt) == "" {
		return invocation{}, ErrEmptyPrompt
	}
	if !utf8.ValidString(p.prompt) || strings.IndexByte(p.prompt, 0) >= 0 {
		return invocation{}, ErrBadText
	}
	if len(p.prompt) > maxStdinBytes {
		return invocation{}, fmt.Errorf("%w: %d bytes (at most %d)", ErrPromptTooLong, len(p.prompt), maxStdinBytes)
	}
	if p.resume != "" && !sessionRe().MatchString(p.resume) {
		return invocation{}, fmt.Errorf("%w: %q", ErrBadSession, p.resume)
	}
	if p.model != "" && !modelRe().MatchString(p.model) {
		return invocation{}, fmt.Errorf("%w: %q", ErrBadModel, p.model)
	}
	args := []string{"--output-format", "stream-json", "--skip-trust", "--yolo"}
	if p.policy != "" {
		args = append(args, "--policy="+p.policy)
	}
	if p.model != "" {
		args = append(args, "--model="+p.model)
	}
	if p.resume != "" {
		args = append(args, "--resume="+p.resume)
	}
	for _, d := range p.readDirs {
		if d != "" && !strings.ContainsAny(d, ",\x00") {
			args = append(args, "--include-directories="+d)
		}
	}
	if len(p.prompt) > maxArgBytes {
		return invocation{args: append(args, "--prompt="), stdinPrompt: p.prompt}, nil
	}
	return invocation{args: append(args, "--prompt="+p.prompt)}, nil
}

// checkBaseURL rejects a GOOGLE_GEMINI_BASE_URL that is not a URL, or
// that is plain http to anything but this machine: gemini would send the
// API key over it in clear text.
func checkBaseURL(env []string) error {
	raw, ok := lookupEnv(env, "GOOGLE_GEMINI_BASE_URL")
	if !ok || raw == "" {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return fmt.Errorf("%w: %q is not a URL", ErrInsecureBaseURL, raw)
	}
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		host := u.Hostname()
		if host == "localhost" {
			return nil
		}
		if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
			return nil
		}
	}
	return fmt.Errorf("%w: got %q", ErrInsecureBaseURL, raw)
}
