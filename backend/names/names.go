// Package names holds the one rule for each kind of name a user or a
// setting gives: a git branch, a forge host, a forge label or user name.
// Settings, the CLI, the window and git calls all check through it, so a
// name one of them takes is a name the others take.
package names

import (
	"net/netip"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Branch reports whether name is a branch name as a user writes it: what
// git check-ref-format --branch accepts, except "@", "HEAD", a name git
// could take as an option ("-x") and a full ref ("refs/heads/x" would be
// pushed as refs/heads/refs/heads/x; callers strip "refs/heads/" first
// where they accept one).
func Branch(name string) bool {
	if name == "" || name == "@" || name == "HEAD" || strings.HasPrefix(name, "-") || strings.HasPrefix(name, "refs/") ||
		strings.HasPrefix(name, "/") || strings.HasSuffix(name, "/") || strings.HasSuffix(name, ".") ||
		strings.Contains(name, "..") || strings.Contains(name, "//") || strings.Contains(name, "@{") {
		return false
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f || strings.ContainsRune(" ~^:?*[\\", r) {
			return false
		}
	}
	for _, part := range strings.Split(name, "/") {
		if strings.HasPrefix(part, ".") || strings.HasSuffix(part, ".lock") {
			return false
		}
	}
	return true
}

// maxHost is the longest host name DNS allows.
const maxHost = 253

// Host reports whether h is a host as a remote URL names it: a DNS name
// (letters, digits, hyphens, dots), an IPv4 address or a bracketed IPv6
// one, with an optional :port.
func Host(h string) bool {
	name, port := h, ""
	if strings.HasPrefix(h, "[") {
		end := strings.Index(h, "]")
		if end < 0 {
			return false
		}
		if _, err := netip.ParseAddr(h[1:end]); err != nil {
			return false
		}
		name, port = "", strings.TrimPrefix(h[end+1:], ":")
		if h[end+1:] != "" && !strings.HasPrefix(h[end+1:], ":") {
			return false
		}
	} else if i := strings.LastIndex(h, ":"); i >= 0 {
		name, port = h[:i], h[i+1:]
		if port == "" {
			return false
		}
	}
	if port != "" && !validPort(port) {
		return false
	}
	if name == "" {
		return strings.HasPrefix(h, "[")
	}
	if len(name) > maxHost {
		return false
	}
	for _, label := range strings.Split(strings.TrimSuffix(name, "."), ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, r := range label {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
				return false
			}
		}
	}
	return true
}

func validPort(p string) bool {
	if len(p) > 5 {
		return false
	}
	n := 0
	for _, r := range p {
		if r < '0' || r > '9' {
			return false
		}
		n = n*10 + int(r-'0')
	}
	return n > 0 && n < 65536
}

// maxLabel bounds a label's and a user name's length (GitLab allows 255
// for a label; GitHub 50; no forge allows more).
const maxLabel = 255

// Label reports whether s can be a forge label: one line of printable
// characters, no comma (the forges' lists are comma-separated), not only
// spaces, at most 255 bytes.
func Label(s string) bool {
	if strings.TrimSpace(s) == "" || len(s) > maxLabel || !utf8.ValidString(s) || strings.Contains(s, ",") {
		return false
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

// User reports whether s can be a forge user name (GitHub's and GitLab's
// rules together: letters, digits, '-', '_' and '.', at most 255 bytes),
// written with or without a leading '@'.
func User(s string) bool {
	s = strings.TrimPrefix(s, "@")
	if s == "" || len(s) > maxLabel {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}
