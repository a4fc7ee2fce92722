// Package kubernetes runs tasks as Kubernetes Jobs behind runner.Pipeline:
// the queue, its budgets, review and accept stay on the desktop, and each
// task whose executor is the cluster is shipped to a pod (its rows and a
// bundle of its base), run there by `boof-runner exec-task` through the
// same pipeline a local run uses, and followed through the pod's log:
// every event, log line and byte of output reaches this store, the
// transcript and the live feed as it would locally, and the task's
// branches come back under the same names at each step's end. The
// cluster itself is reached through a separate process (`boof-runner-kube
// exec-remote`, package kube): client-go never links into the desktop.
// docs/cluster.md has the design as built.
package kubernetes
