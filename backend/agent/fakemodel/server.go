// Package fakemodel is a fake model server for tests of the real agent CLIs.
// It listens on loopback on a random port, speaks the streaming Anthropic
// Messages API (messages.go), the OpenAI Responses API (responses.go) and
// the Gemini API (gemini.go), and answers with replies scripted per test
// while recording every request.
package fakemodel

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// apiHandler serves one API route with the server's scripted replies.
type apiHandler func(s *Server, w http.ResponseWriter, r *http.Request, req Request)

// apiRoutes maps a URL path to the handler of its API. Each API file adds its
// routes in an init function; the table is never changed after init.
var apiRoutes = map[string]apiHandler{}

// apiPrefixes maps a URL path prefix to the handler of an API whose paths
// carry a parameter (Gemini's /v1beta/models/MODEL:METHOD); an exact route
// of apiRoutes wins. Filled by init functions like apiRoutes.
var apiPrefixes = map[string]apiHandler{}

// route returns the handler of path: its exact route, else the handler of
// the longest prefix it starts with.
func route(path string) (apiHandler, bool) {
	if h, ok := apiRoutes[path]; ok {
		return h, true
	}
	var best apiHandler
	n := 0
	for p, h := range apiPrefixes {
		if len(p) > n && strings.HasPrefix(path, p) {
			best, n = h, len(p)
		}
	}
	return best, best != nil
}

// Request is one request the server received.
type Request struct {
	Method string
	Path   string
	Header http.Header
	Body   []byte
	// Time is when the request arrived.
	Time time.Time
}

// Server is a running fake model server. Its methods are safe for concurrent use.
type Server struct {
	ln    net.Listener
	http  *http.Server
	url   string
	ctx   context.Context // cancelled by Close so hanging replies end
	close context.CancelFunc

	mu        sync.Mutex
	queue     []Reply
	responder func(Request) Reply
	requests  []Request
	def       Reply
}

// defaultReply is what the server answers when nothing is scripted.
var defaultReply = Reply{Text: "ok"}

// New starts a server on 127.0.0.1 on a random port. It returns an error when
// it cannot listen. Close it when done.
func New() (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("fake model listen: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{ln: ln, url: "http://" + ln.Addr().String(), ctx: ctx, close: cancel, def: defaultReply}
	s.http = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = s.http.Serve(ln) }()
	return s, nil
}

// Start starts a server for a test or benchmark and closes it in tb.Cleanup.
// It fails tb when the server cannot listen.
func Start(tb testing.TB) *Server {
	tb.Helper()
	s, err := New()
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(s.Close)
	return s
}

// URL is the server's base URL, "http://127.0.0.1:PORT", without a trailing slash.
func (s *Server) URL() string { return s.url }

// Addr is the server's "127.0.0.1:PORT".
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Close ends hanging replies and shuts the server down, waiting at most 5 s.
func (s *Server) Close() {
	s.close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.http.Shutdown(ctx); err != nil {
		_ = s.http.Close()
	}
}

// Enqueue appends replies to the script; each model request takes the next one.
func (s *Server) Enqueue(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = append(s.queue, replies...)
}

// SetDefault sets the reply used when the script is empty and no responder is set.
func (s *Server) SetDefault(r Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.def = r
}

// SetResponder makes f choose the reply of every model request for which
// the script is empty. f runs on the request's goroutine.
func (s *Server) SetResponder(f func(Request) Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.responder = f
}

// Requests returns a copy of every request received so far, in arrival order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// ModelRequests returns the received requests whose path is path.
func (s *Server) ModelRequests(path string) []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Path == path {
			out = append(out, r)
		}
	}
	return out
}

// next picks the reply for req: the script first, then the responder, then the default.
func (s *Server) next(req Request) Reply {
	s.mu.Lock()
	if len(s.queue) > 0 {
		r := s.queue[0]
		s.queue = s.queue[1:]
		s.mu.Unlock()
		return r
	}
	f, def := s.responder, s.def
	s.mu.Unlock()
	if f != nil {
		return f(req)
	}
	return def
}

// ServeHTTP records the request and routes it to its API.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	if err != nil {
		http.Error(w, "read body", http.StatusBadRequest)
		return
	}
	req := Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body, Time: time.Now()}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.mu.Unlock()
	if h, ok := route(r.URL.Path); ok && r.Method == http.MethodPost {
		h(s, w, r, req)
		return
	}
	if r.Method == http.MethodHead || (r.Method == http.MethodGet && r.URL.Path == "/") {
		w.WriteHeader(http.StatusOK)
		return
	}
	http.NotFound(w, r)
}

// wait sleeps for d, or until the client or the server goes away. It returns
// false when the reply should be abandoned.
func (s *Server) wait(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
	case <-s.ctx.Done():
	}
	return false
}

// hang holds the reply open until the client or the server goes away.
func (s *Server) hang(r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-s.ctx.Done():
	}
}

// errClosed is returned by helpers when the client went away mid-reply.
var errClosed = errors.New("client went away")
