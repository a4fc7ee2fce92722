// Command boof-runner-kube speaks to a Kubernetes cluster for Boof Runner:
// `boof-runner-kube exec-remote` runs one task's Job (package
// backend/executor/kubernetes/kube). It is a binary of its own so that
// client-go never links into boof-runner or its window; the desktop
// starts it beside itself for each task that runs in the cluster.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/boof-runner/boof-runner/backend/executor/kubernetes/kube"
)

func main() {
	if len(os.Args) != 2 || os.Args[1] != "exec-remote" {
		fmt.Fprintln(os.Stderr, "usage: boof-runner-kube exec-remote (a spec and commands on stdin, statuses on stdout)")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := kube.ExecRemote(ctx, os.Stdin, os.Stdout)
	stop()
	os.Exit(code)
}
