// Package secrets finds credentials in text and replaces them with
// Redacted: tokens and API keys of well-known services (the rule set of
// gitleaks, compiled once into one keyword-driven pass), private keys,
// credentials in URLs, Authorization and bearer headers, and .env-style
// assignments of passwords, tokens and keys.
//
// Everything an agent produces goes through it before it is stored or
// shown: Scrub for a string, Stream for a process's output as it is
// written (correct across chunk boundaries, bounded memory). What the user
// wrote is never scrubbed.
//
// The package does no I/O except ScrubFile, which rewrites one file.
package secrets

import (
	"bytes"
	"sync"
)

// Redacted replaces every secret found.
const Redacted = "[REDACTED]"

var (
	defaultOnce    sync.Once
	defaultMatcher *Matcher
)

// Default returns the matcher of the built-in rule set, compiled on first
// use. It panics if the embedded rule set does not compile (a build defect
// a test catches).
func Default() *Matcher {
	defaultOnce.Do(func() {
		m, err := Compile()
		if err != nil {
			panic("secrets: " + err.Error())
		}
		defaultMatcher = m
	})
	return defaultMatcher
}

// Scrub returns text with every secret of the default rule set replaced by
// Redacted. Text without a secret is returned as it is.
func Scrub(text string) string {
	return Default().Scrub(text)
}

// Scrub returns text with every secret replaced by Redacted.
func (m *Matcher) Scrub(text string) string {
	spans := m.find([]byte(text), nil, false)
	if len(spans) == 0 {
		return text
	}
	return string(redact(nil, []byte(text), spans))
}

// ScrubBytes returns p with every secret replaced by Redacted, and how
// many were replaced. When there is none it returns p itself.
func (m *Matcher) ScrubBytes(p []byte) ([]byte, int) {
	spans := m.find(p, nil, false)
	if len(spans) == 0 {
		return p, 0
	}
	return redact(nil, p, spans), len(spans)
}

// Contains reports whether text holds a secret.
func (m *Matcher) Contains(text string) bool {
	return len(m.find([]byte(text), nil, false)) > 0
}

// redact appends p to dst with each span (sorted, disjoint) replaced.
func redact(dst, p []byte, spans []span) []byte {
	last := 0
	for _, s := range spans {
		dst = append(dst, p[last:s.start]...)
		dst = append(dst, Redacted...)
		last = s.end
	}
	return append(dst, p[last:]...)
}

// lineBounds returns the start and end (exclusive, before '\n') of the line
// of p holding i, looking at most limit bytes either way.
func lineBounds(p []byte, i, limit int) (int, int) {
	lo := max(0, i-limit)
	start := lo
	if j := bytes.LastIndexByte(p[lo:i], '\n'); j >= 0 {
		start = lo + j + 1
	}
	hi := min(len(p), i+limit)
	end := hi
	if j := bytes.IndexByte(p[i:hi], '\n'); j >= 0 {
		end = i + j
	}
	return start, end
}
