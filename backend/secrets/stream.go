package secrets

import "bytes"

// Stream bounds: an incomplete line is kept whole up to streamHold bytes;
// past that all but its last streamOverlap bytes are scrubbed and passed
// on, so a 10 MB line costs 64 KiB of memory and a secret at its end is
// still seen whole (no secret of the rule set is longer than the overlap).
const (
	streamHold    = 64 << 10
	streamOverlap = 8 << 10
)

// Stream scrubs a byte stream (a process's output) as it is written.
// Secrets split across writes are found: complete lines are scrubbed and
// passed on, an incomplete line is held until its end arrives, Flush is
// called, or it grows past 64 KiB. A private key spread over many lines
// (or writes) is redacted to its END line. A Stream is not safe for
// concurrent use.
type Stream struct {
	m     *Matcher
	held  []byte
	out   []byte
	inKey bool
	count int
	// tail is the end of the current line already passed on (idleWindow
	// bytes at most), scanned again with what follows.
	tail []byte
}

// NewStream returns a Stream over the default rule set.
func NewStream() *Stream { return Default().NewStream() }

// NewStream returns a Stream over m's rules.
func (m *Matcher) NewStream() *Stream { return &Stream{m: m} }

// Write takes the next bytes of the stream and returns the scrubbed bytes
// that are ready, possibly none. The result is valid until the next call.
func (s *Stream) Write(p []byte) []byte {
	s.out = s.out[:0]
	s.held = append(s.held, p...)
	if nl := bytes.LastIndexByte(s.held, '\n'); nl >= 0 {
		s.emit(s.held[:nl+1], true)
		s.held = s.held[:copy(s.held, s.held[nl+1:])]
	}
	for len(s.held) > streamHold {
		cut := s.safeCut()
		s.emit(s.held[:cut], true)
		s.held = s.held[:copy(s.held, s.held[cut:])]
	}
	return s.out
}

// Flush scrubs and returns what is held (an incomplete last line). The
// result is valid until the next call.
func (s *Stream) Flush() []byte {
	s.out = s.out[:0]
	if len(s.held) > 0 {
		s.emit(s.held, true)
		s.held = s.held[:0]
	}
	return s.out
}

// FlushIdle is called when the child has printed nothing for a while
// mid-line (a prompt, a pause): it scrubs and returns what is held except a
// tail that may be the start of a secret whose rest has not come yet (the
// token running to the end, a secret or its keyword reaching it). The tail
// waits for its line's end, more output, or Flush; what went on is scanned
// again with the rest of its line. The result is valid until the next call.
func (s *Stream) FlushIdle() []byte {
	s.out = s.out[:0]
	if cut := s.idleCut(); cut > 0 {
		s.emit(s.held[:cut], true)
		s.held = s.held[:copy(s.held, s.held[cut:])]
	}
	return s.out
}

// idleWindow is how much of a line already passed on is kept to scan
// again with the rest of the line (longer than any assignment's name,
// operator and quoting before its value, or a key's BEGIN line).
const idleWindow = 256

// idleCut returns how much of the held line can go on after a pause: not
// the token running to its end, nor a secret (or its keyword) reaching it.
func (s *Stream) idleCut() int {
	h := s.held
	cut := len(h)
	for cut > 0 && h[cut-1] != ' ' && h[cut-1] != '\t' && h[cut-1] != '\r' {
		cut--
	}
	for _, sp := range s.m.find(h, nil, true) {
		if sp.end >= cut {
			cut = min(cut, sp.ctx)
		}
	}
	return max(cut, 0)
}

// Held is how many bytes wait for the rest of their line.
func (s *Stream) Held() int { return len(s.held) }

// Count is how many secrets were redacted so far.
func (s *Stream) Count() int { return s.count }

// safeCut returns where to split an over-long held line: about
// streamOverlap bytes before its end, moved back before any secret (and
// the text that makes it one) that would straddle the split.
func (s *Stream) safeCut() int {
	cut := len(s.held) - streamOverlap
	for _, sp := range s.m.find(s.held, nil, true) {
		if sp.end > cut && sp.ctx < cut {
			cut = sp.ctx
		}
	}
	if cut <= 0 { // one secret (a huge key) fills the buffer: cut through it
		cut = len(s.held) - streamOverlap
	}
	return cut
}

// emit scrubs b and appends it to the output. The part of the current
// line already passed on (after a pause, or a cut of a long line) is
// scanned again with b, so a secret whose keyword went on before is found.
func (s *Stream) emit(b []byte, _ bool) {
	var spans []span
	if s.inKey {
		n, closed := keyBodyLen(b)
		if n > 0 {
			spans = append(spans, span{start: 0, end: n})
		}
		s.inKey = n == len(b) && !closed
	}
	text := b
	if len(s.tail) > 0 {
		text = append(s.tail[:len(s.tail):len(s.tail)], b...)
	}
	off := len(text) - len(b)
	for _, sp := range s.m.find(text, nil, true) {
		if sp.end > off {
			spans = append(spans, span{start: max(sp.start-off, 0), end: sp.end - off, ctx: max(sp.ctx-off, 0)})
		}
	}
	spans = mergeSpans(spans)
	if !s.inKey {
		s.inKey = openKey(text)
	}
	s.count += len(spans)
	s.out = redact(s.out, b, spans)
	if i := bytes.LastIndexByte(text, '\n'); i >= 0 {
		text = text[i+1:]
	}
	// The tail starts at a whole escape, so it decodes as the line did.
	s.tail = append(s.tail[:0], text[escapeStart(text, max(0, len(text)-idleWindow)):]...)
}

// openKey reports whether b ends inside a private key: its last BEGIN …
// PRIVATE KEY line has no END line after it.
func openKey(b []byte) bool {
	begin := []byte("-----BEGIN")
	if bytes.Index(b, begin) < 0 { // the common case, with Index's vector search (LastIndex has none)
		return false
	}
	i := bytes.LastIndex(b, begin)
	hdr := b[i:min(len(b), i+200)]
	if j := bytes.Index(hdr[10:], []byte("-----")); j < 0 || !bytes.Contains(hdr[:10+j], []byte("PRIVATE KEY")) {
		return false
	}
	return !bytes.Contains(b[i:], []byte("-----END"))
}
