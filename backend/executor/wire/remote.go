package wire

import "strconv"

// The protocol between the desktop and `boof-runner-kube exec-remote`, the
// process that speaks to the cluster for one task's run: JSON lines on its
// stdin (a Spec, then Commands) and on its stdout (Statuses). Its stdin
// closing (the app gone) ends it and leaves the Job running.

// Spec is the first line the desktop writes: the cluster and the Job of
// one task's run.
type Spec struct {
	// Kubeconfig ("" = $KUBECONFIG or ~/.kube/config), Context ("" = its
	// current one) and Namespace name the cluster.
	Kubeconfig string `json:"kubeconfig,omitempty"`
	Context    string `json:"context,omitempty"`
	Namespace  string `json:"namespace"`
	TaskID     string `json:"task_id"`
	// Job is the Job's name (JobName).
	Job string `json:"job"`
	// Attach follows the task's existing Job (found by its label) and never
	// creates one: the app restarted while the Job ran.
	Attach bool `json:"attach,omitempty"`
	// The container: image, resources ({"requests": {...}, "limits":
	// {...}}), service account and the Secret given as environment.
	Image          string                       `json:"image,omitempty"`
	Resources      map[string]map[string]string `json:"resources,omitempty"`
	ServiceAccount string                       `json:"service_account,omitempty"`
	SecretName     string                       `json:"secret_name,omitempty"`
	// ActiveDeadlineSeconds bounds the Job; GraceSeconds is the pod's
	// termination grace (the pipeline's stop grace and the time to hand
	// the work back).
	ActiveDeadlineSeconds int64 `json:"active_deadline_seconds,omitempty"`
	GraceSeconds          int64 `json:"grace_seconds,omitempty"`
	// Input is task.json. Bundle is the base bundle when it fits a
	// ConfigMap beside the input (MaxInline); otherwise BundleURL is where
	// an init container fetches it.
	Input     []byte `json:"input,omitempty"`
	Bundle    []byte `json:"bundle,omitempty"`
	BundleURL string `json:"bundle_url,omitempty"`
	// ImagePullGiveUpSeconds is how long a pod may wait for its image
	// (ErrImagePull, ImagePullBackOff) before the run gives up.
	ImagePullGiveUpSeconds int64 `json:"image_pull_give_up_seconds,omitempty"`
}

// MaxInline is the most the ConfigMap holding a task's input and base may
// carry: a ConfigMap (and a Secret) holds at most 1 MiB, and the object's
// own fields take some of it.
const MaxInline = 1<<20 - 16<<10

// LabelTask is the label every object of a task's run carries, its value
// the task's id.
const LabelTask = "boof-runner/task"

// JobName is the name of a task's Job for its iteration.
func JobName(taskID string, iteration int) string {
	return "boof-" + dnsSafe(taskID) + "-" + strconv.Itoa(iteration)
}

// Command is a later line the desktop writes.
type Command struct {
	// Op is "stop" (delete the Job, foreground) or "inject".
	Op     string         `json:"op"`
	Inject *InjectRequest `json:"inject,omitempty"`
}

// Status kinds exec-remote prints.
const (
	// StatusLine carries one line of the pod's log (Line).
	StatusLine = "line"
	// StatusPhase says where the pod is (Phase, Reason, Message, Pod).
	StatusPhase = "phase"
	// StatusInjected answers an inject command (ID; Message on failure).
	StatusInjected = "injected"
	// StatusEnd is the run's end in the cluster: Phase Succeeded, Failed
	// or Gone (the Job deleted), Reason and Message say why.
	StatusEnd = "end"
	// StatusError is a problem that ends exec-remote: Class says which
	// (the Error* constants), Message says it in one line.
	StatusError = "error"
)

// Error classes of StatusError.
const (
	ErrorUnreachable = "unreachable" // the API server cannot be reached
	ErrorConfig      = "config"      // the kubeconfig or its context
	ErrorForbidden   = "forbidden"   // RBAC refused
	ErrorImage       = "image"       // the image cannot be pulled
	ErrorGone        = "gone"        // the Job is not there (deleted elsewhere)
	ErrorOther       = "other"
)

// Status is a line exec-remote prints.
type Status struct {
	Kind    string `json:"k"`
	Line    string `json:"line,omitempty"`
	Phase   string `json:"phase,omitempty"`
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
	Pod     string `json:"pod,omitempty"`
	Class   string `json:"class,omitempty"`
	ID      int64  `json:"id,omitempty"`
}

// dnsSafe lowercases id and keeps what a DNS label allows.
func dnsSafe(id string) string {
	b := make([]byte, 0, len(id))
	for i := 0; i < len(id) && len(b) < 40; i++ {
		c := id[i]
		switch {
		case c >= 'A' && c <= 'Z':
			b = append(b, c+'a'-'A')
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			b = append(b, c)
		default:
			b = append(b, '-')
		}
	}
	return string(b)
}
