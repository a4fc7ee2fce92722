package pipeline

import "regexp"

// secretPatterns match tokens and API keys that must not reach durable text.
var secretPatterns = []*regexp.Regexp{
	regexp.MustCompile(`\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}`),
	regexp.MustCompile(`\bgh[pousr]_[A-Za-z0-9]{20,}`),
	regexp.MustCompile(`\bgithub_pat_[A-Za-z0-9_]{20,}`),
	regexp.MustCompile(`\bAKIA[0-9A-Z]{16}\b`),
	regexp.MustCompile(`\bxox[abpr]-[A-Za-z0-9-]{10,}`),
	regexp.MustCompile(`(?i)\b(bearer)\s+[A-Za-z0-9._~+/-]{20,}=*`),
	regexp.MustCompile(`(?i)\b((?:api[_-]?key|access[_-]?token|secret|password|auth[_-]?token)["']?\s*[:=]\s*["']?)[^\s"',]{8,}`),
}

// Scrub replaces tokens and API keys in text with [REDACTED].
func Scrub(text string) string {
	for i, p := range secretPatterns {
		switch i {
		case len(secretPatterns) - 2:
			text = p.ReplaceAllString(text, "$1 [REDACTED]")
		case len(secretPatterns) - 1:
			text = p.ReplaceAllString(text, "${1}[REDACTED]")
		default:
			text = p.ReplaceAllString(text, "[REDACTED]")
		}
	}
	return text
}
