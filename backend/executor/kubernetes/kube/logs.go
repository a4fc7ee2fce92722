package kube

import (
	"context"
	"sync"

	corev1 "k8s.io/api/core/v1"

	"github.com/boof-runner/boof-runner/backend/executor/wire"
)

// logStream reads a pod's log (follow) on a goroutine of its own.
type logStream struct {
	cancel context.CancelFunc
	done   chan struct{}
	once   sync.Once
	// clean is set when the log was read to its end (EOF, no error): a
	// stream cut by an API server going away is not clean.
	clean bool
}

// streamLog follows the task container's log of pod from its start,
// skipping the first skip lines (printed by an earlier stream), calling
// line for each other line and counting it in *count.
func (c *Client) streamLog(ctx context.Context, pod string, skip int, line func(string), count *int) *logStream {
	ctx, cancel := context.WithCancel(ctx)
	ls := &logStream{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(ls.done)
		rc, err := c.cs.CoreV1().Pods(c.ns).GetLogs(pod, &corev1.PodLogOptions{Container: ContainerName, Follow: true}).Stream(ctx)
		if err != nil {
			return
		}
		defer rc.Close()
		sc := wire.NewScanner(rc)
		n := 0
		for sc.Scan() {
			n++
			if n <= skip {
				continue
			}
			line(sc.Text())
			*count = n
		}
		ls.clean = sc.Err() == nil && ctx.Err() == nil
	}()
	return ls
}

// complete reports whether the stream ended having read the whole log
// (only once finished).
func (ls *logStream) complete() bool { return ls.finished() && ls.clean }

// finished reports whether the stream ended (the container exited, or the
// connection broke).
func (ls *logStream) finished() bool {
	select {
	case <-ls.done:
		return true
	default:
		return false
	}
}

// stop ends the stream and waits for it.
func (ls *logStream) stop() {
	ls.once.Do(ls.cancel)
	<-ls.done
}
