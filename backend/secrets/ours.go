package secrets

import (
	"bytes"
	"fmt"
	"strings"
)

// ownRegexRules cover what gitleaks' rules miss or match only in their
// exact published shape (a fixed length, a checksum marker, a minimum
// entropy): an agent's output holds truncated, test and odd-length keys too.
var ownRegexRules = []tomlRule{
	{ID: "authorization-header", Keywords: []string{"authorization"},
		Regex: `(?i)\bauthorization\\?["']?[ \t]*[:=][ \t]*\\?["']?(?:(?:bearer|basic|token|digest|negotiate|bot|apikey|sso-key)[ \t]+)?([^\s"'\\,;]{6,})`},
	{ID: "bearer-token", Keywords: []string{"bearer"},
		Regex: `(?i)\bbearer[ \t]+([A-Za-z0-9._~+/=-]{12,})`},
	{ID: "api-key-header", Keywords: []string{"x-"},
		Regex: `(?i)\bx-(?:[a-z0-9]+-)*(?:api-?key|auth-?token|access-?token|token|secret)\\?["']?[ \t]*:[ \t]*\\?["']?([^\s"'\\,;]{8,})`},
	{ID: "anthropic-like-key", Keywords: []string{"sk-ant-"}, Regex: `\bsk-ant-[a-z0-9]{2,10}-[A-Za-z0-9_-]{16,}`},
	{ID: "openai-like-key", Keywords: []string{"sk-"}, Regex: `\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}`},
	{ID: "github-like-token", Keywords: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, Regex: `\bgh[pousr]_[A-Za-z0-9]{20,}`},
	{ID: "github-like-pat", Keywords: []string{"github_pat_"}, Regex: `\bgithub_pat_[A-Za-z0-9_]{20,}`},
	// GitLab's token prefixes (personal, deploy, runner, trigger, CI job,
	// incoming mail, agent, OAuth app, service account, feed, feature
	// flag, workspace...), as the GitLab client and glab print them.
	{ID: "gitlab-like-token", Keywords: []string{"glpat-", "gldt-", "glrt-", "glptt-", "glcbt-", "glimt-", "glagent-", "gloas-", "glsoat-", "glffct-", "glft-", "glwt-"},
		Regex: `\bgl(?:pat|dt|rt|ptt|cbt|imt|agent|oas|soat|ffct|ft|wt)-[A-Za-z0-9_.-]{20,}`},
	// GitLab's token header (PRIVATE-TOKEN, JOB-TOKEN, DEPLOY-TOKEN) in a
	// dumped request, whatever the token's form.
	{ID: "gitlab-token-header", Keywords: []string{"private-token", "job-token", "deploy-token"},
		Regex: `(?i)\b(?:private|job|deploy)-token\\?["']?[ \t]*[:=][ \t]*\\?["']?([^\s"'\\,;]{8,})`},
	{ID: "aws-like-key-id", Keywords: []string{"akia", "asia"}, Regex: `\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`},
	{ID: "slack-like-token", Keywords: []string{"xoxa-", "xoxb-", "xoxp-", "xoxr-", "xoxs-", "xoxe-", "xapp-"}, Regex: `\bx(?:ox[abprse]|app)-[A-Za-z0-9-]{10,}`},
	{ID: "stripe-like-key", Keywords: []string{"sk_live_", "sk_test_", "rk_live_", "rk_test_"}, Regex: `\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}`},
	{ID: "sendgrid-like-key", Keywords: []string{"sg."}, Regex: `\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}`},
	{ID: "npm-like-token", Keywords: []string{"npm_"}, Regex: `\bnpm_[A-Za-z0-9]{30,}`},
	{ID: "pypi-like-token", Keywords: []string{"pypi-"}, Regex: `\bpypi-[A-Za-z0-9_-]{40,}`},
	{ID: "huggingface-like-token", Keywords: []string{"hf_"}, Regex: `\bhf_[A-Za-z0-9]{30,}`},
	{ID: "google-like-api-key", Keywords: []string{"aiza"}, Regex: `\bAIza[0-9A-Za-z_-]{30,}`},
	{ID: "twilio-like-key", Keywords: []string{"sk"}, Regex: `\bSK[0-9a-f]{32}\b`},
	{ID: "jwt-like", Keywords: []string{"eyj"}, Regex: `\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`},
}

// ownRules compiles this package's rules: the regex rules above and the
// hand-written detectors below.
func ownRules() ([]*rule, error) {
	var out []*rule
	for _, tr := range ownRegexRules {
		r, err := compileRule(tr)
		if err != nil {
			return nil, fmt.Errorf("rule %s: %w", tr.ID, err)
		}
		if r.mode != modeAnchored {
			return nil, fmt.Errorf("rule %s: does not start with its keyword", tr.ID)
		}
		out = append(out, r)
	}
	out = append(out,
		&rule{id: "private-key-block", mode: modeFunc, keywords: []string{"-----begin"}, fn: pemAt},
		&rule{id: "url-credentials", mode: modeFunc, keywords: []string{"://"}, fn: urlCredentialsAt},
		&rule{id: "assignment", mode: modeFunc, keywords: assignmentKeywords, fn: assignmentAt},
	)
	return out, nil
}

// --- private keys ---

// pemAt redacts a private key block from its BEGIN line through its END
// line, or, when the END is missing (a truncated or streamed key), through
// the run of key text that follows. Newlines may be real or escaped (\n in
// JSON). The BEGIN line itself is kept so the reader sees what was there.
func pemAt(p []byte, hit int) (int, int, int, bool) {
	rest := p[hit:min(len(p), hit+200)]
	close := bytes.Index(rest[len("-----begin"):], []byte("-----"))
	if close < 0 {
		return 0, 0, 0, false
	}
	header := rest[:len("-----begin")+close+5]
	if !bytes.Contains(bytes.ToUpper(header), []byte("PRIVATE KEY")) {
		return 0, 0, 0, false
	}
	start := hit + len(header)
	n, _ := keyBodyLen(p[start:])
	end := start + n
	if end == start {
		return 0, 0, 0, false
	}
	return hit, start, end, true
}

// keyBodyLen returns how much of p is private key text: base64 lines,
// line breaks (real or escaped, at any depth), line numbers (cat -n,
// claude's Read), PEM header lines and a closing END line; closed says
// the END line was reached.
func keyBodyLen(p []byte) (n int, closed bool) {
	i := 0
	lineStart := true
	run := 0 // length of the current run of base64
	for i < len(p) {
		c := p[i]
		if lineStart {
			if k, _ := lineNumberLen(p, i); k > 0 {
				i += k
				continue
			}
		}
		switch {
		case c == '\\':
			k := i
			for k < len(p) && p[k] == '\\' {
				k++
			}
			if k == len(p) || p[k] != 'n' && p[k] != 'r' {
				return i, false
			}
			i, lineStart, run = k+1, true, 0
			continue
		case c == '\n' || c == '\r':
			i, lineStart, run = i+1, true, 0
			continue
		case c == ' ' || c == '\t':
			// Indentation (a key in YAML), or key lines joined by spaces
			// (a line-wrapped quote); prose after a key is not eaten.
			if !lineStart && run < 40 {
				return i, false
			}
			i++
			run = 0
			continue
		case c == '-' && bytes.HasPrefix(p[i:], []byte("-----END")):
			if j := bytes.Index(p[i+8:min(len(p), i+200)], []byte("-----")); j >= 0 {
				return i + 8 + j + 5, true
			}
			return i, false
		case lineStart && (bytes.HasPrefix(p[i:], []byte("Proc-Type:")) || bytes.HasPrefix(p[i:], []byte("DEK-Info:"))):
			for i < len(p) && p[i] != '\n' && p[i] != '\\' {
				i++
			}
			continue
		case isBase64(c):
			i++
			run++
		default:
			return i, false
		}
		lineStart = false
	}
	return i, false
}

func isBase64(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '='
}

// --- credentials in URLs ---

// urlCredentialsAt finds the password of scheme://user:password@host (or a
// token given as the user alone, https://TOKEN@host) at a "://" hit.
func urlCredentialsAt(p []byte, hit int) (int, int, int, bool) {
	s := hit
	for s > 0 && hit-s < 32 && (isWord(p[s-1]) || p[s-1] == '+' || p[s-1] == '.' || p[s-1] == '-') {
		s--
	}
	if s == hit {
		return 0, 0, 0, false
	}
	u := hit + 3
	at, colon := -1, -1
	for i := u; i < len(p) && i-u < 512; i++ {
		c := p[i]
		if c == '@' {
			at = i
			break
		}
		if c == ':' && colon < 0 {
			colon = i
		}
		if c == '/' || c == '?' || c == '#' || c <= ' ' || c == '"' || c == '\'' || c == '\\' || c == '<' || c == '>' || c == '`' {
			break
		}
	}
	switch {
	case at < 0:
		return 0, 0, 0, false
	case colon >= 0 && colon < at && at-colon > 1:
		pw := p[colon+1 : at]
		if isPlaceholder(pw) {
			return 0, 0, 0, false
		}
		return s, colon + 1, at, true
	case colon < 0 && at-u >= 20:
		return s, u, at, true // a bare token as the user name
	}
	return 0, 0, 0, false
}

// --- assignments: .env lines, config keys, query strings ---

// assignmentKeywords start or sit inside names whose value is a secret.
var assignmentKeywords = []string{
	"passw", "passphrase", "pwd", "secret", "token", "api_key", "apikey", "api-key",
	"access_key", "accesskey", "private_key", "privatekey", "auth", "credential",
	"_key", "-key", "accountkey", "sharedaccesskey", "session_key", "signing_key",
}

// notSecretSuffixes end names that hold no secret (counts, ids, paths).
var notSecretSuffixes = []string{
	"tokens", "_count", "count", "_len", "_length", "length", "_size", "size", "_id", "id", "_ids",
	"_file", "file", "_path", "path", "_url", "url", "_uri", "uri", "_name", "name", "_type", "type",
	"source", "_env", "_var", "_field", "_header", "_prefix", "_format", "_limit", "_usage", "usage",
	"author", "authors", "authority", "_mode", "mode", "_method", "method", "_provider", "provider",
	"_expires", "_expiry", "_ttl", "_enabled", "enabled", "_required", "required", "_policy",
}

// assignmentAt finds NAME=value, NAME: value, "name": "value" and
// ?name=value where the name holds a keyword: the value is redacted.
func assignmentAt(p []byte, hit int) (int, int, int, bool) {
	ns := hit
	for ns > 0 && hit-ns < 64 && isIdent(p[ns-1]) {
		ns--
	}
	ne := hit
	for ne < len(p) && ne-hit < 64 && isIdent(p[ne]) {
		ne++
	}
	name := strings.ToLower(string(p[ns:ne]))
	if name == "pwd" || name == "oldpwd" {
		return 0, 0, 0, false // the shell's working directory
	}
	if ns > 0 && p[ns-1] == '/' {
		return 0, 0, 0, false // user:password@ of a URL: urlCredentialsAt
	}
	for _, suf := range notSecretSuffixes {
		if strings.HasSuffix(name, suf) {
			return 0, 0, 0, false
		}
	}
	upper := bytes.Equal(p[ns:ne], bytes.ToUpper(p[ns:ne]))
	i := ne
	quoted := false
	// A closing quote of a JSON or YAML key, maybe JSON-escaped.
	if i < len(p) && p[i] == '\\' && i+1 < len(p) && p[i+1] == '"' {
		i, quoted = i+2, true
	} else if i < len(p) && (p[i] == '"' || p[i] == '\'') {
		i, quoted = i+1, true
	}
	i = skipBlank(p, i)
	code := true // an = (code, .env) rather than a : (YAML, JSON)
	switch {
	case i+1 < len(p) && p[i] == ':' && p[i+1] == '=':
		i += 2
	case i < len(p) && p[i] == '=' && !(i+1 < len(p) && p[i+1] == '='):
		i++
		if i < len(p) && p[i] == '>' {
			i++
		}
	case i < len(p) && p[i] == ':' && !(i+1 < len(p) && p[i+1] == ':'):
		i, code = i+1, false
	default:
		return 0, 0, 0, false
	}
	i = skipBlank(p, i)
	open := false
	if i+1 < len(p) && p[i] == '\\' && p[i+1] == '"' {
		i, open = i+2, true
	} else if i < len(p) && (p[i] == '"' || p[i] == '\'') {
		i, open = i+1, true
	}
	vs := i
	for i < len(p) && i-vs < 512 && valueByte(p[i]) {
		i++
	}
	v := p[vs:i]
	if len(v) < 4 || isPlaceholder(v) || allDigits(v) {
		return 0, 0, 0, false
	}
	// A lower-case name assigned a bare word is code (token = makeToken),
	// not a secret; a quoted value or an ENV_NAME's value is.
	if !upper && code && !open && !quoted && isBareWord(v) {
		return 0, 0, 0, false
	}
	if !upper && isBareWord(v) && !hasDigit(v) && (len(v) < 8 || !quoted && !open && !atLineStart(p, ns)) {
		return 0, 0, 0, false // a word in prose ("the secret: configure it")
	}
	return ns, vs, i, true
}

func skipBlank(p []byte, i int) int {
	for i < len(p) && (p[i] == ' ' || p[i] == '\t') {
		i++
	}
	return i
}

// valueByte reports whether c can be part of an unquoted secret value.
func valueByte(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '"', '\'', '\\', '`', ',', ';', '&', '<', '>', '(', ')', '{', '}', '[', ']':
		return false
	}
	return c > ' ' && c != 0x7f
}

// isPlaceholder reports values that stand for a secret without being one.
func isPlaceholder(v []byte) bool {
	low := strings.ToLower(string(v))
	switch low {
	case "true", "false", "null", "none", "nil", "undefined", "empty", "required", "optional", "string", "redacted":
		return true
	}
	if strings.HasPrefix(low, "[redacted") || strings.HasPrefix(low, "$") || strings.HasPrefix(low, "%") ||
		strings.HasPrefix(low, "{{") || strings.HasPrefix(low, "<") || strings.HasPrefix(low, "os.") ||
		strings.HasPrefix(low, "process.env") || strings.HasPrefix(low, "env.") {
		return true
	}
	return strings.Trim(low, "*x.-_") == ""
}

func allDigits(v []byte) bool {
	for _, c := range v {
		if (c < '0' || c > '9') && c != '.' {
			return false
		}
	}
	return true
}

func hasDigit(v []byte) bool {
	return bytes.ContainsAny(v, "0123456789")
}

// isBareWord reports an identifier-like value (letters, digits, _ and .).
func isBareWord(v []byte) bool {
	for _, c := range v {
		if !isWord(c) && c != '.' {
			return false
		}
	}
	return len(v) > 0 && !(v[0] >= '0' && v[0] <= '9')
}

// atLineStart reports whether only indentation (or a list dash) comes
// between the start of its line, real or escaped, and i.
func atLineStart(p []byte, i int) bool {
	for i > 0 && (p[i-1] == ' ' || p[i-1] == '\t' || p[i-1] == '-') {
		i--
	}
	return i == 0 || p[i-1] == '\n' || i >= 2 && p[i-2] == '\\' && p[i-1] == 'n'
}
