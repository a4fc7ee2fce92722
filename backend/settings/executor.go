package settings

import (
	"net"
	"regexp"
	"slices"
	"strings"
)

// Executor kinds (settings.executor.kind).
const (
	// ExecutorLocal ("") runs tasks on this machine.
	ExecutorLocal = ""
	// ExecutorKubernetes runs tasks as Kubernetes Jobs (docs/cluster.md).
	ExecutorKubernetes = "kubernetes"
)

// Defaults of settings.executor.
const (
	DefaultExecutorNamespace   = "default"
	DefaultExecutorConcurrency = 4
	DefaultStepDeadlineMinutes = 60
	maxStepDeadlineMinutes     = 24 * 60
	// DefaultImagePullTimeoutSeconds is how long a pod may wait for its image.
	DefaultImagePullTimeoutSeconds = 120
)

// Executor holds settings.executor: where the tasks that do not choose run
// (task.ExecutorDefault), and the cluster the "kubernetes" kind runs them
// in. Nothing here is a secret: credentials stay in the kubeconfig and in
// the Secret named by SecretName.
type Executor struct {
	// Kind is "" (this machine) or "kubernetes".
	Kind string `json:"kind,omitempty"`
	// Kubeconfig is the kubeconfig file ("" = $KUBECONFIG or ~/.kube/config).
	Kubeconfig string `json:"kubeconfig,omitempty"`
	// Context is the kubeconfig context ("" = its current context).
	Context string `json:"context,omitempty"`
	// Namespace holds the Jobs ("" = default).
	Namespace string `json:"namespace,omitempty"`
	// Image is the container image: Debian with git, the pinned agent CLIs
	// and this version's boof-runner (build/Containerfile).
	Image string `json:"image,omitempty"`
	// Resources are the container's requests and limits:
	// {"requests": {"cpu": "2", "memory": "4Gi"}, "limits": {...}}.
	Resources map[string]map[string]string `json:"resources,omitempty"`
	// ServiceAccount runs the pods ("" = the namespace's default).
	ServiceAccount string `json:"serviceAccount,omitempty"`
	// SecretName is the Secret whose keys become the container's
	// environment (the agents' API keys).
	SecretName string `json:"secretName,omitempty"`
	// Concurrency is how many tasks run in the cluster at once, besides
	// runner.concurrency on this machine.
	Concurrency int `json:"concurrency,omitempty"`
	// StepDeadlineMinutes bounds one step in the cluster; the Job's
	// activeDeadlineSeconds is the most steps a run can take times it.
	StepDeadlineMinutes int `json:"stepDeadlineMinutes,omitempty"`
	// BundleAddress is the host:port this app serves a base too large for
	// a ConfigMap on; BundleURL the URL the pods reach it at (default
	// http://BundleAddress). Without them such a task fails, saying so.
	BundleAddress string `json:"bundleAddress,omitempty"`
	BundleURL     string `json:"bundleURL,omitempty"`
	// ImagePullTimeoutSeconds is how long a pod may wait for its image
	// (ErrImagePull, ImagePullBackOff) before the task fails, saying so.
	ImagePullTimeoutSeconds int `json:"imagePullTimeoutSeconds,omitempty"`
}

// HasCluster reports whether the settings name a cluster tasks can run in:
// an image to run them in. It is the one rule for "a cluster is
// configured": a task that chooses the cluster without one is refused, and
// the cluster has no slots.
func (e Executor) HasCluster() bool { return e.Image != "" }

// EffectiveImagePullTimeout is ImagePullTimeoutSeconds or 120.
func (e Executor) EffectiveImagePullTimeout() int {
	if e.ImagePullTimeoutSeconds <= 0 {
		return DefaultImagePullTimeoutSeconds
	}
	return e.ImagePullTimeoutSeconds
}

// EffectiveNamespace is Namespace or the default.
func (e Executor) EffectiveNamespace() string {
	if e.Namespace == "" {
		return DefaultExecutorNamespace
	}
	return e.Namespace
}

// EffectiveConcurrency is Concurrency or the default.
func (e Executor) EffectiveConcurrency() int {
	if e.Concurrency <= 0 {
		return DefaultExecutorConcurrency
	}
	return e.Concurrency
}

// EffectiveStepDeadlineMinutes is StepDeadlineMinutes or the default.
func (e Executor) EffectiveStepDeadlineMinutes() int {
	if e.StepDeadlineMinutes <= 0 {
		return DefaultStepDeadlineMinutes
	}
	return e.StepDeadlineMinutes
}

var (
	dnsLabel    = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`)
	dnsSubdom   = regexp.MustCompile(`^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$`)
	quantity    = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$`)
	resourceKey = regexp.MustCompile(`^([a-z0-9.-]+/)?[a-z0-9]([-a-z0-9.]*[a-z0-9])?$`)
)

// executorProblems reports the bad keys of settings.executor.
func (s Settings) executorProblems(bad func(key, format string, args ...any)) {
	e := s.Executor
	if e.Kind != ExecutorLocal && e.Kind != ExecutorKubernetes {
		bad("executor.kind", "must be kubernetes or left out (got %q)", e.Kind)
	}
	for _, f := range []struct{ key, v string }{{"executor.kubeconfig", e.Kubeconfig}, {"executor.context", e.Context},
		{"executor.image", e.Image}, {"executor.bundleURL", e.BundleURL}} {
		if strings.ContainsAny(f.v, "\n\r\x00") {
			bad(f.key, "must not contain a line break or NUL")
		}
	}
	if e.Kind == ExecutorKubernetes && strings.TrimSpace(e.Image) == "" {
		bad("executor.image", "must name the image the tasks run in (see build/Containerfile)")
	}
	if e.Namespace != "" && !dnsLabel.MatchString(e.Namespace) {
		bad("executor.namespace", "must be a Kubernetes namespace name (got %q)", e.Namespace)
	}
	for _, f := range []struct{ key, v string }{{"executor.serviceAccount", e.ServiceAccount}, {"executor.secretName", e.SecretName}} {
		if f.v != "" && !dnsSubdom.MatchString(f.v) {
			bad(f.key, "must be a Kubernetes object name (got %q)", f.v)
		}
	}
	if e.Concurrency < 0 || e.Concurrency > MaxConcurrency {
		bad("executor.concurrency", "must be between 1 and %d (got %d)", MaxConcurrency, e.Concurrency)
	}
	if e.StepDeadlineMinutes < 0 || e.StepDeadlineMinutes > maxStepDeadlineMinutes {
		bad("executor.stepDeadlineMinutes", "must be between 1 and %d (got %d)", maxStepDeadlineMinutes, e.StepDeadlineMinutes)
	}
	if e.ImagePullTimeoutSeconds < 0 || e.ImagePullTimeoutSeconds > 3600 {
		bad("executor.imagePullTimeoutSeconds", "must be between 1 and 3600 (got %d)", e.ImagePullTimeoutSeconds)
	}
	if e.BundleAddress != "" {
		if _, _, err := net.SplitHostPort(e.BundleAddress); err != nil {
			bad("executor.bundleAddress", "must be host:port (got %q)", e.BundleAddress)
		}
	}
	for _, section := range sortedKeys(e.Resources) {
		if section != "requests" && section != "limits" {
			bad("executor.resources", "holds requests and limits only (got %q)", section)
			continue
		}
		for _, name := range sortedKeys(e.Resources[section]) {
			if !resourceKey.MatchString(name) || !quantity.MatchString(e.Resources[section][name]) {
				bad("executor.resources."+section+"."+name, "must be a resource quantity such as 500m or 2Gi (got %q)", e.Resources[section][name])
			}
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
