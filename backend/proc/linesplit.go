package proc

import (
	"bytes"
	"strings"
)

// shrinkAbove is the buffer capacity beyond which a LineSplitter frees its
// buffer after a long line instead of keeping it for reuse.
const shrinkAbove = 1 << 20

// LineSplitter splits a byte stream into lines for line protocols such as
// JSON lines. It handles lines split across writes, "\r\n" endings and
// lines of any length (tens of megabytes), drops terminal escape sequences
// (CSI, OSC, DCS and short ESC sequences) found at the start or end of a
// line, and skips lines that are empty after that. Bytes are passed on
// unchanged otherwise, invalid UTF-8 included; use ForDisplay to show them.
// A LineSplitter is not safe for concurrent use.
type LineSplitter struct {
	onLine func(line []byte)
	buf    []byte
}

// NewLineSplitter returns a splitter that calls onLine for every complete
// line, without its line ending. onLine must not retain the slice.
func NewLineSplitter(onLine func(line []byte)) *LineSplitter {
	return &LineSplitter{onLine: onLine}
}

// Write feeds p to the splitter and calls onLine for each line it
// completes. It always consumes all of p and never returns an error.
func (s *LineSplitter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			s.buf = append(s.buf, p...)
			break
		}
		if len(s.buf) > 0 {
			s.buf = append(s.buf, p[:i]...)
			s.emit(s.buf)
			s.reset()
		} else {
			s.emit(p[:i])
		}
		p = p[i+1:]
	}
	return n, nil
}

// Flush emits a final line that has no line ending (if any).
func (s *LineSplitter) Flush() {
	if len(s.buf) > 0 {
		s.emit(s.buf)
		s.reset()
	}
}

func (s *LineSplitter) reset() {
	if cap(s.buf) > shrinkAbove {
		s.buf = nil
		return
	}
	s.buf = s.buf[:0]
}

func (s *LineSplitter) emit(line []byte) {
	if line = trimEscapes(line); len(line) > 0 {
		s.onLine(line)
	}
}

// trimEscapes removes carriage returns and terminal escape sequences from
// both ends of line. Sequences inside the line are left alone.
func trimEscapes(line []byte) []byte {
	for len(line) > 0 {
		if line[0] == '\r' {
			line = line[1:]
			continue
		}
		if n := escLen(line); n > 0 {
			line = line[n:]
			continue
		}
		break
	}
	for len(line) > 0 && line[len(line)-1] == '\r' {
		line = line[:len(line)-1]
	}
	// Find the first ESC from which only escape sequences and \r remain.
	from := 0
	for {
		i := bytes.IndexByte(line[from:], 0x1b)
		if i < 0 {
			return line
		}
		i += from
		if onlyEscapes(line[i:]) {
			return line[:i]
		}
		from = i + 1
	}
}

func onlyEscapes(b []byte) bool {
	for len(b) > 0 {
		if b[0] == '\r' {
			b = b[1:]
			continue
		}
		n := escLen(b)
		if n == 0 {
			return false
		}
		b = b[n:]
	}
	return true
}

// escLen returns the length of the complete escape sequence at the start
// of b, or 0 if b does not start with one.
func escLen(b []byte) int {
	if len(b) < 2 || b[0] != 0x1b {
		return 0
	}
	switch c := b[1]; {
	case c == '[': // CSI: parameters and intermediates, then a final byte.
		for i := 2; i < len(b); i++ {
			switch x := b[i]; {
			case x >= 0x40 && x <= 0x7e:
				return i + 1
			case x < 0x20 || x > 0x7e:
				return 0
			}
		}
		return 0
	case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
		// OSC, DCS, SOS, PM, APC: until BEL or ST (ESC \).
		for i := 2; i < len(b); i++ {
			if b[i] == 0x07 {
				return i + 1
			}
			if b[i] == 0x1b {
				if i+1 < len(b) && b[i+1] == '\\' {
					return i + 2
				}
				return 0
			}
		}
		return 0
	case c >= 0x20 && c <= 0x2f: // nF: intermediates then a final byte.
		for i := 2; i < len(b); i++ {
			if b[i] >= 0x30 && b[i] <= 0x7e {
				return i + 1
			}
			if b[i] < 0x20 || b[i] > 0x2f {
				return 0
			}
		}
		return 0
	case c >= 0x30 && c <= 0x7e: // Fp, Fe, Fs: two bytes (ESC 7, ESC =, ESC c).
		return 2
	}
	return 0
}

// ForDisplay returns b as a string with each invalid UTF-8 sequence
// replaced by U+FFFD. Use it only for showing output; keep raw bytes
// everywhere else.
func ForDisplay(b []byte) string {
	return strings.ToValidUTF8(string(b), "\uFFFD")
}
