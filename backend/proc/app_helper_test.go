//go:build linux

package proc

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"
)

// appMain plays the desktop app: it runs hostile trees through a Runner
// and, on SIGTERM, shuts the runner down and exits.
func appMain() int {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	r := NewRunner(RunnerOptions{})
	exe, _ := os.Executable()
	dir, _ := os.Getwd()
	ready := make(chan struct{}, 8)
	roles := []string{"ignore-term", "escapee", "daemon"}
	for _, role := range roles {
		var mu sync.Mutex
		var out bytes.Buffer
		want := map[string]string{"ignore-term": "ready", "escapee": "escapee-ready", "daemon": "leaf-ready"}[role]
		once := sync.Once{}
		_, err := r.Start(context.Background(), Spec{
			Path: exe, Dir: dir, Grace: time.Hour,
			Env: []string{helperEnv + "=" + role, markEnv + "=" + os.Getenv(markEnv)},
			OnChunk: func(b []byte) {
				mu.Lock()
				defer mu.Unlock()
				out.Write(b)
				if strings.Contains(out.String(), want) {
					once.Do(func() { ready <- struct{}{} })
				}
			},
		})
		if err != nil {
			fmt.Println("error", err)
			return 1
		}
	}
	for range roles {
		<-ready
	}
	fmt.Println("app-ready; process trees:", r.Mechanism())
	<-sigs
	r.Shutdown(200 * time.Millisecond)
	fmt.Println("app-stopped")
	return 0
}
