package qwen

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Errors for bad requests; Start wraps them.
var (
	// ErrNoDir means the request has no working directory.
	ErrNoDir = errors.New("no working directory")
	// ErrEmptyPrompt means the request has no prompt.
	ErrEmptyPrompt = errors.New("empty prompt")
	// ErrBadText means a prompt or system prompt is not valid UTF-8 or holds a NUL byte.
	ErrBadText = errors.New("prompt is not valid UTF-8 text")
	// ErrBadModel means the model id is not usable as a qwen model.
	ErrBadModel = errors.New("invalid model id")
	// ErrSystemPromptTooLong means the system prompt does not fit in an argument.
	ErrSystemPromptTooLong = errors.New("system prompt too long")
)

// maxArgBytes is the largest argument passed: Linux refuses a single
// argument of 128 KiB or more (MAX_ARG_STRLEN). The prompt itself goes
// through stdin.
const maxArgBytes = 100 << 10

// modelRe accepts model ids such as "qwen3-coder-plus" or "qwen/qwen3-coder:free".
var modelRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,127}$`) })

// editTools are qwen's tools that change files, left out of a read-only
// step (its shell stays, so the role can run tests; what the shell changes
// the pipeline reverts).
var editTools = []string{"write_file", "edit", "notebook_edit"}

// params are the inputs of buildArgs.
type params struct {
	model, system string
	// session is the session id: a new one (--session-id) or, with
	// resume, the one to continue (--resume).
	session  string
	resume   bool
	readOnly bool
	readDirs []string
	// maxWall bounds the run (--max-wall-time; 0 = none).
	maxWall time.Duration
	// ephemeral keeps qwen from recording the chat (health checks).
	ephemeral bool
}

// buildArgs returns qwen's arguments for a step:
//
//	--input-format stream-json --output-format stream-json --yolo --auth-type openai
//	[--model=M] [--append-system-prompt=S] (--session-id=ID | --resume=ID)
//	[--exclude-tools=T]... [--include-directories=D]... [--max-wall-time=Ns] [--chat-recording=false]
//
// The prompt is not an argument: it goes to stdin as a stream-json user
// message (any size, and text starting with a dash is never an option).
// Values use the --flag=value form for the same reason.
func buildArgs(p params) ([]string, error) {
	if !utf8.ValidString(p.system) || strings.IndexByte(p.system, 0) >= 0 {
		return nil, ErrBadText
	}
	if p.model != "" && !modelRe().MatchString(p.model) {
		return nil, fmt.Errorf("%w: %q", ErrBadModel, p.model)
	}
	a := []string{"--input-format", "stream-json", "--output-format", "stream-json", "--yolo", "--auth-type", "openai"}
	if p.model != "" {
		a = append(a, "--model="+p.model)
	}
	if p.system != "" {
		if len(p.system) > maxArgBytes {
			return nil, fmt.Errorf("%w: %d bytes", ErrSystemPromptTooLong, len(p.system))
		}
		a = append(a, "--append-system-prompt="+p.system)
	}
	if p.resume {
		a = append(a, "--resume="+p.session)
	} else {
		a = append(a, "--session-id="+p.session)
	}
	if p.readOnly {
		for _, tool := range editTools {
			a = append(a, "--exclude-tools="+tool)
		}
	}
	for _, d := range p.readDirs {
		a = append(a, "--include-directories="+d)
	}
	if p.maxWall > 0 {
		a = append(a, "--max-wall-time="+strconv.FormatInt(int64(math.Ceil(p.maxWall.Seconds())), 10)+"s")
	}
	if p.ephemeral {
		a = append(a, "--chat-recording=false")
	}
	return a, nil
}

// userMessage is one stream-json input line.
type userMessage struct {
	Type    string `json:"type"`
	Message struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"message"`
}

// encodeUser encodes text as a stream-json user message line. It returns
// ErrBadText for text that is not valid UTF-8 or holds a NUL byte.
func encodeUser(text string) ([]byte, error) {
	if !utf8.ValidString(text) || strings.IndexByte(text, 0) >= 0 {
		return nil, ErrBadText
	}
	var m userMessage
	m.Type, m.Message.Role, m.Message.Content = "user", "user", text
	b, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("encode message: %w", err)
	}
	return append(b, '\n'), nil
}
