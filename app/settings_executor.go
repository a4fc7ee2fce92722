package app

import (
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/task"
)

// ExecutorView is settings.executor as the window needs it: whether a
// cluster is configured (the New task form offers "run in the cluster" only
// then), where a task that does not choose runs, and which cluster. The
// window does not edit it: Save keeps the stored executor whatever the view
// holds (settings.json and `boof-runner settings set executor.*` set it).
type ExecutorView struct {
	// Cluster is true when a task can run in the cluster (the settings
	// name an image for it: settings.Executor.HasCluster).
	Cluster bool `json:"cluster"`
	// Default is where a task that does not choose runs: "local", or
	// "kubernetes" when executor.kind sends such tasks to the cluster.
	Default task.Executor `json:"default"`
	// Context is the kubeconfig context ("" = the kubeconfig's current one).
	Context string `json:"context"`
	// Namespace is the namespace the Jobs run in.
	Namespace string `json:"namespace"`
}

// executorView is the view of e; a view of no cluster names none.
func executorView(e settings.Executor) ExecutorView {
	if !e.HasCluster() {
		return ExecutorView{Default: task.ExecutorLocal}
	}
	v := ExecutorView{Cluster: true, Default: task.ExecutorLocal, Context: e.Context, Namespace: e.EffectiveNamespace()}
	if e.Kind == settings.ExecutorKubernetes {
		v.Default = task.ExecutorKubernetes
	}
	return v
}
