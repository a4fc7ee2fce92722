package kubernetes

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// bundleServer serves the base bundles too large for a ConfigMap to the
// init containers that fetch them: each at a URL holding a random token,
// until its run ends.
type bundleServer struct {
	log *slog.Logger

	mu      sync.Mutex
	addr    string
	srv     *http.Server
	bundles map[string][]byte
}

// add serves b on addr (started on first use) and returns its URL, under
// base ("" = http://addr).
func (s *bundleServer) add(_ context.Context, addr, base string, b []byte) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srv == nil {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return "", err
		}
		s.addr, s.bundles = ln.Addr().String(), map[string][]byte{}
		s.srv = &http.Server{Handler: http.HandlerFunc(s.handle), ReadHeaderTimeout: 10 * time.Second}
		go func() {
			if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				s.log.Warn("executor: bundle server", "err", err)
			}
		}()
	} else if addr != s.addr && !strings.HasSuffix(addr, ":0") {
		return "", fmt.Errorf("already serving on %s", s.addr)
	}
	var tok [16]byte
	if _, err := rand.Read(tok[:]); err != nil {
		return "", err
	}
	name := hex.EncodeToString(tok[:])
	s.bundles[name] = b
	if base == "" {
		base = "http://" + s.addr
	}
	return strings.TrimSuffix(base, "/") + "/bundles/" + name, nil
}

// remove stops serving the bundle at url.
func (s *bundleServer) remove(url string) {
	if url == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.bundles, url[strings.LastIndexByte(url, '/')+1:])
}

func (s *bundleServer) handle(w http.ResponseWriter, r *http.Request) {
	name, ok := strings.CutPrefix(r.URL.Path, "/bundles/")
	s.mu.Lock()
	b, found := s.bundles[name]
	s.mu.Unlock()
	if !ok || !found || r.Method != http.MethodGet {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	_, _ = w.Write(b)
}

// close stops the server.
func (s *bundleServer) close() error {
	s.mu.Lock()
	srv := s.srv
	s.srv = nil
	s.mu.Unlock()
	if srv == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(ctx)
}
