//go:build k8s && linux

package k8stest

import (
	"io"
	"net/http"
	"os"
	"strings"
	"time"
)

// serveLogs serves GET /containerLogs/<namespace>/<pod>/<container>
// [?follow=true] as a kubelet does: the container's output from its start,
// and with follow, what it prints next until it exits.
func (a *Agent) serveLogs(w http.ResponseWriter, r *http.Request) {
	parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/containerLogs/"), "/")
	if !strings.HasPrefix(r.URL.Path, "/containerLogs/") || len(parts) != 3 {
		http.NotFound(w, r)
		return
	}
	a.mu.Lock()
	var pr *podRun
	for _, p := range a.pods {
		if p.ns == parts[0] && p.name == parts[1] {
			pr = p
		}
	}
	a.mu.Unlock()
	if pr == nil {
		http.Error(w, "pod "+parts[1]+" is not on this node", http.StatusNotFound)
		return
	}
	pr.mu.Lock()
	path, ok := pr.logs[parts[2]]
	pr.mu.Unlock()
	if !ok {
		http.Error(w, "container "+parts[2]+" has not started", http.StatusBadRequest)
		return
	}
	f, err := os.Open(path)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	defer f.Close()
	w.Header().Set("Content-Type", "text/plain")
	follow := r.URL.Query().Get("follow") == "true"
	fl, _ := w.(http.Flusher)
	buf := make([]byte, 64<<10)
	for {
		n, err := f.Read(buf)
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				return
			}
			continue
		}
		if err != nil && err != io.EOF {
			return
		}
		if !follow {
			return
		}
		pr.mu.Lock()
		running := pr.running[parts[2]]
		pr.mu.Unlock()
		if !running {
			if n, _ := f.Read(buf); n > 0 { // what it printed as it exited
				_, _ = w.Write(buf[:n])
				continue
			}
			return
		}
		if fl != nil {
			fl.Flush()
		}
		select {
		case <-r.Context().Done():
			return
		case <-time.After(100 * time.Millisecond):
		}
	}
}
