package codex

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// maxArgBytes is the largest prompt passed as an argument. Linux refuses a
// single argument of 128 KiB or more (MAX_ARG_STRLEN); larger prompts go
// through stdin.
const maxArgBytes = 100 << 10

// Errors for bad requests; Start wraps them.
var (
	// ErrNoDir means the request has no working directory.
	ErrNoDir = errors.New("no working directory")
	// ErrEmptyPrompt means the request has no prompt.
	ErrEmptyPrompt = errors.New("empty prompt")
	// ErrBadSession means the resume session id is not a codex thread id.
	ErrBadSession = errors.New("invalid session id")
	// ErrBadModel means the model id is not usable as a codex model.
	ErrBadModel = errors.New("invalid model id")
	// ErrBadText means a prompt or system prompt is not valid UTF-8 or holds a NUL byte.
	ErrBadText = errors.New("prompt is not valid UTF-8 text")
	// ErrSystemPromptTooLong means the system prompt does not fit in an argument.
	ErrSystemPromptTooLong = errors.New("system prompt too long")
)

// sessionRe accepts codex thread ids (UUIDs) and plain thread names.
var sessionRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$`) })

// modelRe accepts model ids such as "gpt-6.2-sol" or "org/model:tag".
var modelRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,127}$`) })

// invocation is one codex command line.
type invocation struct {
	args []string
	// stdinPrompt is the prompt to write to stdin ("" when it is an argument).
	stdinPrompt string
}

// buildArgs returns the codex exec command line for a step:
//
//	exec [resume] --json --dangerously-bypass-approvals-and-sandbox --skip-git-repo-check
//	     [--ephemeral] [-C dir] [-m model] -o lastFile [-c developer_instructions=...] [-c override]... -- [thread] prompt
//
// A resumed thread runs in dir (codex exec resume takes no -C). The role
// system prompt goes in codex's developer_instructions, which codex sends
// as a developer message after its own instructions. A prompt too long
// for an argument is passed as "-" and read from stdin.
func buildArgs(p stepParams) (invocation, error) {
	if strings.TrimSpace(p.prompt) == "" {
		return invocation{}, ErrEmptyPrompt
	}
	for _, s := range []string{p.prompt, p.system} {
		if !utf8.ValidString(s) || strings.IndexByte(s, 0) >= 0 {
			return invocation{}, ErrBadText
		}
	}
	if p.resume != "" && !sessionRe().MatchString(p.resume) {
		return invocation{}, fmt.Errorf("%w: %q", ErrBadSession, p.resume)
	}
	if p.model != "" && !modelRe().MatchString(p.model) {
		return invocation{}, fmt.Errorf("%w: %q", ErrBadModel, p.model)
	}
	args := []string{"exec"}
	if p.resume != "" {
		args = append(args, "resume")
	}
	if p.readOnly {
		// codex's own read-only sandbox: no writes anywhere, /tmp and
		// build caches included, so it is used only for roles that need
		// not run tests (see stepParams.readOnly).
		args = append(args, "--json", "--sandbox", "read-only", "-c", `approval_policy="never"`, "--skip-git-repo-check")
	} else {
		args = append(args, "--json", "--dangerously-bypass-approvals-and-sandbox", "--skip-git-repo-check")
	}
	if p.ephemeral {
		args = append(args, "--ephemeral")
	}
	if p.resume == "" {
		args = append(args, "-C", p.dir)
	}
	if p.model != "" {
		args = append(args, "-m", p.model)
	}
	args = append(args, "-o", p.lastFile)
	if p.system != "" {
		inst := "developer_instructions=" + tomlString(p.system)
		if len(inst) > maxArgBytes {
			return invocation{}, fmt.Errorf("%w: %d bytes", ErrSystemPromptTooLong, len(p.system))
		}
		args = append(args, "-c", inst)
	}
	for _, o := range p.overrides {
		args = append(args, "-c", o)
	}
	args = append(args, "--")
	if p.resume != "" {
		args = append(args, p.resume)
	}
	if len(p.prompt) > maxArgBytes {
		return invocation{args: append(args, "-"), stdinPrompt: p.prompt}, nil
	}
	return invocation{args: append(args, p.prompt)}, nil
}

// stepParams are the inputs of buildArgs.
type stepParams struct {
	prompt, system, model, dir, resume, lastFile string
	overrides                                    []string
	// ephemeral keeps codex from writing session files.
	ephemeral bool
	// readOnly runs codex in its read-only sandbox.
	readOnly bool
}

// tomlString quotes s as a TOML basic string, so codex takes it verbatim
// whatever it holds (quotes, newlines, text that would parse as TOML).
func tomlString(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 || r == 0x7f {
				fmt.Fprintf(&b, `\u%04X`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}
