package task

// Executor names where a task's runs execute. The queue, its budgets,
// review and accept always stay on the desktop; only the pipeline runs
// elsewhere (docs/cluster.md).
type Executor string

const (
	// ExecutorDefault follows settings.executor: the cluster when its kind
	// is set, this machine otherwise.
	ExecutorDefault Executor = ""
	// ExecutorLocal runs the task on this machine whatever the settings say.
	ExecutorLocal Executor = "local"
	// ExecutorKubernetes runs the task as a Kubernetes Job of the cluster
	// settings.executor names.
	ExecutorKubernetes Executor = "kubernetes"
)

// ParseExecutor returns the executor s names ("", "local" or
// "kubernetes"), or an error wrapping ErrInvalid.
func ParseExecutor(s string) (Executor, error) {
	switch e := Executor(s); e {
	case ExecutorDefault, ExecutorLocal, ExecutorKubernetes:
		return e, nil
	}
	return "", invalid("executor %q is not local or kubernetes", s)
}
