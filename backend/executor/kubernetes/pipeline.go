package kubernetes

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/executor/wire"
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/pipeline"
	"github.com/boof-runner/boof-runner/backend/runner"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/userfile"
)

// KubeBinEnv names the exec-remote binary when set; otherwise it is
// KubeBinName beside this executable, then on PATH.
const KubeBinEnv = "BOOF_KUBE_BIN"

// KubeBinName is the binary that speaks to the cluster (cmd/boof-runner-kube).
const KubeBinName = "boof-runner-kube"

// Options configure a Pipeline.
type Options struct {
	// Local runs the tasks that run on this machine, and completes every
	// decided outcome (a remote run's has no worktree to clean).
	Local runner.Pipeline
	Store *store.Store
	// Settings returns the current settings (read once per task).
	Settings func() settings.Settings
	// Paths is the data root: its settings file is shipped, large bases
	// and unmatched bundles are kept under it.
	Paths dataroot.Paths
	// Hooks receive the live output of remote runs, as of local ones.
	Hooks pipeline.Hooks
	// Git runs the git commands on the user's repositories.
	Git *gitx.Git
	// KubeBin is the exec-remote binary ("" = KubeBinEnv, then
	// KubeBinName beside this executable, then on PATH).
	KubeBin string
	// ControlPoll is how often a remote run looks for stop and inject
	// controls without a wake-up; default 250 ms.
	ControlPoll time.Duration
	// Wake returns a channel closed when a control may have arrived.
	Wake   func() <-chan struct{}
	Logger *slog.Logger
}

// Pipeline is runner.Pipeline for a queue some of whose tasks run in a
// cluster: those it runs as Jobs, the others through Local.
type Pipeline struct {
	o     Options
	serve *bundleServer
}

var (
	_ runner.Pipeline = (*Pipeline)(nil)
	_ runner.Placer   = (*Pipeline)(nil)
	_ runner.Adopter  = (*Pipeline)(nil)
)

// New returns a Pipeline; Local, Store, Settings and Git are required.
func New(o Options) *Pipeline {
	if o.ControlPoll <= 0 {
		o.ControlPoll = 250 * time.Millisecond
	}
	if o.Wake == nil {
		o.Wake = func() <-chan struct{} { return nil }
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return &Pipeline{o: o, serve: &bundleServer{log: o.Logger}}
}

// Close stops serving large bases.
func (p *Pipeline) Close() error { return p.serve.close() }

// Remote reports whether t runs in the cluster: its own choice, else
// settings.executor.kind.
func (p *Pipeline) Remote(t task.Task, set settings.Settings) bool {
	switch t.Executor {
	case task.ExecutorKubernetes:
		return true
	case task.ExecutorLocal:
		return false
	}
	return set.Executor.Kind == settings.ExecutorKubernetes
}

// RemoteSlots is settings.executor.concurrency, or none when the settings
// name no cluster (no image): the queue then fills its slots as it does
// without a cluster.
func (p *Pipeline) RemoteSlots(set settings.Settings) int {
	if !set.Executor.HasCluster() {
		return 0
	}
	return set.Executor.EffectiveConcurrency()
}

// Run runs a claimed task: in the cluster when it runs there, else locally.
func (p *Pipeline) Run(ctx context.Context, t task.Task, first task.Execution) (pipeline.Result, error) {
	set := p.o.Settings()
	if !p.Remote(t, set) {
		return p.o.Local.Run(ctx, t, first)
	}
	return p.runRemote(ctx, t, first, set)
}

// CompleteDecided completes a decided outcome (Local's: a remote run's
// decision names no clean-up).
func (p *Pipeline) CompleteDecided(ctx context.Context, t task.Task, d store.Decided) (pipeline.Result, error) {
	return p.o.Local.CompleteDecided(ctx, t, d)
}

// RecordDecided is Local's.
func (p *Pipeline) RecordDecided(ctx context.Context, t task.Task, d store.Decided) (pipeline.Result, error) {
	return p.o.Local.RecordDecided(ctx, t, d)
}

// FinishLeft is Local's.
func (p *Pipeline) FinishLeft(ctx context.Context, t task.Task, c store.CleanupLeft) (bool, error) {
	return p.o.Local.FinishLeft(ctx, t, c)
}

// TranscriptPath is Local's: a remote step's output is kept where a local
// one's would be.
func (p *Pipeline) TranscriptPath(taskID string, iteration int, step string, attempt int) string {
	return p.o.Local.TranscriptPath(taskID, iteration, step, attempt)
}

// Adopts reports whether t's run goes on in the cluster: its run record is
// of its current iteration.
func (p *Pipeline) Adopts(ctx context.Context, t task.Task) bool {
	rr, ok, err := p.o.Store.GetRemoteRun(ctx, t.ID)
	return err == nil && ok && rr.Iteration == t.NextIteration()
}

// Follow follows the Job of an adopted task (found by its label) to its end
// and records the outcome, as Run does.
func (p *Pipeline) Follow(ctx context.Context, t task.Task) (pipeline.Result, error) {
	rr, ok, err := p.o.Store.GetRemoteRun(ctx, t.ID)
	if err != nil {
		return pipeline.Result{Iteration: t.NextIteration()}, err
	}
	set := p.o.Settings()
	f := p.newFollower(t, rr)
	if !ok {
		return f.endWithout(ctx, task.StatusStopped, "The record of the task's run in the cluster is gone; it was stopped with its work kept", false)
	}
	f.log(ctx, 0, task.LevelInfo, fmt.Sprintf("Following Job %s in namespace %s after a restart", rr.Job, rr.Namespace))
	spec := p.spec(set, t, rr)
	spec.Attach = true
	return f.follow(ctx, spec)
}

// runRemote ships a claimed task to the cluster and follows its Job.
func (p *Pipeline) runRemote(ctx context.Context, t task.Task, first task.Execution, set settings.Settings) (pipeline.Result, error) {
	iter := t.NextIteration()
	cfg := set.Executor
	rr := store.RemoteRun{TaskID: t.ID, Iteration: iter, Job: wire.JobName(t.ID, iter), Namespace: cfg.EffectiveNamespace(),
		Context: cfg.Context, FirstExec: first.ID}
	f := p.newFollower(t, rr)
	if !cfg.HasCluster() {
		return f.endWithout(ctx, task.StatusFailed, "This task runs in a cluster, but settings.executor names none: set executor.image (and executor.context, executor.namespace), or add the task again with --executor local", false)
	}
	repo := t.Repo
	if repo == "" {
		repo = set.WorkDir()
	}
	dir, err := os.MkdirTemp(p.remoteDir(t.ID), "ship-")
	if err != nil {
		return f.endWithout(ctx, task.StatusFailed, "Could not prepare the task for the cluster: "+err.Error(), false)
	}
	defer os.RemoveAll(dir)
	sh, err := Ship(ctx, p.o.Git, p.o.Store, p.o.Paths.Settings(), t, repo, dir)
	if err != nil {
		return f.endWithout(ctx, task.StatusFailed, "Could not ship the task to the cluster: "+err.Error(), false)
	}
	spec := p.spec(set, t, rr)
	if spec.Input, err = json.Marshal(sh.Input); err != nil {
		return f.endWithout(ctx, task.StatusFailed, "Could not ship the task to the cluster: "+err.Error(), false)
	}
	if msg := p.placeBundle(ctx, &spec, sh, cfg); msg != "" {
		return f.endWithout(ctx, task.StatusFailed, msg, false)
	}
	rr.BaseSHA, rr.Refs = sh.Input.Base, map[string]string{}
	for name, sha := range sh.Input.Refs {
		if wire.OwnsRef(t.ID, name) {
			rr.Refs[name] = sha
		}
	}
	if err := p.o.Store.StartRemoteRun(ctx, rr); err != nil {
		return pipeline.Result{Iteration: iter}, fmt.Errorf("record the remote run: %w", err)
	}
	f.rr, f.repo = rr, repo
	f.log(ctx, 0, task.LevelInfo, fmt.Sprintf("Running in the cluster as Job %s in namespace %s (image %s)", rr.Job, rr.Namespace, cfg.Image))
	return f.follow(ctx, spec)
}

// spec is the Job of t's run under set.
func (p *Pipeline) spec(set settings.Settings, t task.Task, rr store.RemoteRun) wire.Spec {
	cfg := set.Executor
	return wire.Spec{Kubeconfig: cfg.Kubeconfig, Context: rr.Context, Namespace: rr.Namespace, TaskID: t.ID, Job: rr.Job,
		Image: cfg.Image, Resources: cfg.Resources, ServiceAccount: cfg.ServiceAccount, SecretName: cfg.SecretName,
		ActiveDeadlineSeconds: activeDeadline(set), GraceSeconds: set.Stop.GraceMs/1000 + 30,
		ImagePullGiveUpSeconds: int64(cfg.EffectiveImagePullTimeout())}
}

// activeDeadline is the Job's activeDeadlineSeconds: the most steps a run
// can take (planner, refinement, developer, observer and reviewer, then a
// developer, observer and reviewer per fix round, each attempt retried)
// times the step deadline, plus ten minutes to unpack and hand back.
func activeDeadline(set settings.Settings) int64 {
	steps := int64(5 + 3*set.Review.MaxFixRounds)
	attempts := int64(1 + set.Retries.Transient)
	return steps*attempts*int64(set.Executor.EffectiveStepDeadlineMinutes())*60 + 600
}

// remoteDir is where a task's shipments and unmatched bundles are kept.
func (p *Pipeline) remoteDir(taskID string) string {
	d := filepath.Join(p.o.Paths.Root, "remote", taskID)
	_ = os.MkdirAll(d, 0o700)
	return d
}

// placeBundle puts the base in the spec: inline when it fits a ConfigMap
// beside the input, else served at a URL the pods reach; it returns the
// sentence for the task when neither can be done.
func (p *Pipeline) placeBundle(ctx context.Context, spec *wire.Spec, sh Shipment, cfg settings.Executor) string {
	b, err := userfile.ReadKept(sh.Bundle)
	if err != nil {
		return "Could not read the base bundle: " + err.Error()
	}
	if len(spec.Input) > wire.MaxInline {
		return fmt.Sprintf("The task's input (prompt, reports and attachments) is %s, more than a ConfigMap holds (1 MiB): it cannot run in the cluster", size(len(spec.Input)))
	}
	if len(spec.Input)+len(b) <= wire.MaxInline {
		spec.Bundle = b
		return ""
	}
	if cfg.BundleAddress == "" {
		return fmt.Sprintf("The task's base bundle is %s, more than a ConfigMap holds (1 MiB): set executor.bundleAddress (and executor.bundleURL) to an address the cluster's pods reach, and this app serves it there", size(len(b)))
	}
	url, err := p.serve.add(ctx, cfg.BundleAddress, cfg.BundleURL, b)
	if err != nil {
		return "Could not serve the base bundle at " + cfg.BundleAddress + ": " + err.Error()
	}
	spec.BundleURL = url
	return ""
}

func size(n int) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d KiB", n>>10)
}
