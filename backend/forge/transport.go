package forge

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Defaults of a Transport.
const (
	// DefaultTimeout bounds one API call, its answer's body included.
	DefaultTimeout = 30 * time.Second
	// DefaultMaxWait is the longest rate-limit reset a call waits for
	// before it gives up with a *RateLimitError.
	DefaultMaxWait = 60 * time.Second
)

// Transport is the http.RoundTripper under every forge client: a deadline
// per call, rate limits waited out (once, when the reset is at most
// MaxWait away) or returned as *RateLimitError, and the answers that mean
// the same on every forge turned into this package's errors (401/403
// *AuthError, 404 *NotFoundError, 5xx and other refusals *HTTPError, a
// web page *NotJSONError, no answer *UnreachableError). 304, 409 and 422
// pass through for the forge's adapter to read.
type Transport struct {
	// Host names the forge in errors; Source where the token came from.
	Host, Source string
	// Base is the transport used (nil: http.DefaultTransport).
	Base http.RoundTripper
	// Timeout bounds one call (0: DefaultTimeout); MaxWait the rate-limit
	// wait (0: DefaultMaxWait; negative: never wait).
	Timeout, MaxWait time.Duration
	// Now and Sleep are the clock (nil: the real one).
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
}

// Client returns an *http.Client that uses t.
func (t *Transport) Client() *http.Client { return &http.Client{Transport: t} }

// RoundTrip sends req; see Transport.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	for attempt := 0; ; attempt++ {
		resp, err := t.once(req)
		if err != nil {
			return nil, err
		}
		now := t.now()
		wait, limited := rateLimited(resp, now)
		if !limited {
			return t.check(req, resp)
		}
		drain(resp)
		reset := now.Add(wait)
		canResend := req.Body == nil || req.Body == http.NoBody || req.GetBody != nil
		if attempt > 0 || wait > t.maxWait() || !canResend {
			return nil, &RateLimitError{Host: t.Host, Reset: reset}
		}
		if err := t.sleep(req.Context(), max(wait, 0)); err != nil {
			return nil, err
		}
		if req.GetBody != nil {
			body, err := req.GetBody()
			if err != nil {
				return nil, err
			}
			req = req.Clone(req.Context())
			req.Body = body
		}
	}
}

// once sends req with the call's deadline, which holds until the answer's
// body is closed.
func (t *Transport) once(req *http.Request) (*http.Response, error) {
	timeout := t.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(req.Context(), timeout)
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	resp, err := base.RoundTrip(req.WithContext(ctx))
	if err != nil {
		timedOut := errors.Is(ctx.Err(), context.DeadlineExceeded) && req.Context().Err() == nil
		cancel()
		if req.Context().Err() != nil {
			return nil, req.Context().Err()
		}
		if timedOut {
			return nil, &UnreachableError{Host: t.Host, Timeout: timeout, Err: context.DeadlineExceeded}
		}
		return nil, &UnreachableError{Host: t.Host, Err: err}
	}
	resp.Body = &cancelBody{ReadCloser: resp.Body, cancel: cancel}
	return resp, nil
}

// check turns an answer into this package's error, or passes it on.
func (t *Transport) check(req *http.Request, resp *http.Response) (*http.Response, error) {
	code := resp.StatusCode
	if code == http.StatusNotModified || code == http.StatusNoContent {
		return resp, nil
	}
	if ct := resp.Header.Get("Content-Type"); !isJSON(ct) && resp.ContentLength != 0 {
		drain(resp)
		if ct == "" {
			ct = "no content type"
		}
		return nil, &NotJSONError{Host: t.Host, URL: req.URL.Redacted(), Status: code, ContentType: ct}
	}
	switch {
	case code < 300, code == http.StatusConflict, code == http.StatusUnprocessableEntity:
		return resp, nil
	case code == http.StatusUnauthorized, code == http.StatusForbidden:
		msg := message(resp)
		return nil, &AuthError{Host: t.Host, Status: code, Source: t.Source, Message: msg}
	case code == http.StatusNotFound:
		drain(resp)
		return nil, &NotFoundError{Host: t.Host, What: strings.TrimPrefix(req.URL.Path, "/")}
	}
	return nil, &HTTPError{Host: t.Host, Status: code, Message: message(resp)}
}

func (t *Transport) now() time.Time {
	if t.Now != nil {
		return t.Now()
	}
	return time.Now()
}

func (t *Transport) maxWait() time.Duration {
	if t.MaxWait == 0 {
		return DefaultMaxWait
	}
	return t.MaxWait
}

func (t *Transport) sleep(ctx context.Context, d time.Duration) error {
	if t.Sleep != nil {
		return t.Sleep(ctx, d)
	}
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-tm.C:
		return nil
	}
}

// rateLimited reads the rate-limit answers: 429, or 403 with the limit
// spent (GitHub's X-RateLimit-Remaining: 0) or a Retry-After (GitHub's
// secondary limits). It returns how long until the forge takes requests
// again.
func rateLimited(resp *http.Response, now time.Time) (time.Duration, bool) {
	h := resp.Header
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
	case resp.StatusCode == http.StatusForbidden && (h.Get("X-RateLimit-Remaining") == "0" || h.Get("Retry-After") != ""):
	default:
		return 0, false
	}
	if ra := h.Get("Retry-After"); ra != "" {
		if s, err := strconv.Atoi(strings.TrimSpace(ra)); err == nil {
			return time.Duration(s) * time.Second, true
		}
		if at, err := http.ParseTime(ra); err == nil {
			return at.Sub(now), true
		}
	}
	for _, k := range []string{"X-RateLimit-Reset", "RateLimit-Reset"} {
		if v, err := strconv.ParseInt(strings.TrimSpace(h.Get(k)), 10, 64); err == nil && v > 0 {
			if v < 1e9 { // some send seconds from now
				return time.Duration(v) * time.Second, true
			}
			return time.Unix(v, 0).Sub(now), true
		}
	}
	return time.Minute, true
}

func isJSON(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

// message reads the forge's "message" from a JSON error body (GitHub's
// string, GitLab's string, list or object).
func message(resp *http.Response) string {
	defer drain(resp)
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if err != nil {
		return ""
	}
	var body struct {
		Message json.RawMessage `json:"message"`
		Error   string          `json:"error"`
	}
	if json.Unmarshal(b, &body) != nil {
		return ""
	}
	var s string
	if json.Unmarshal(body.Message, &s) == nil && s != "" {
		return oneLine(s)
	}
	if len(body.Message) > 0 && string(body.Message) != "null" {
		return oneLine(string(body.Message))
	}
	return oneLine(body.Error)
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

func drain(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
}

// cancelBody ends the call's deadline when its body is closed.
type cancelBody struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b *cancelBody) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}
