//go:build k8s && linux

package kubernetes_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/boof-runner/boof-runner/backend/executor/kubernetes/k8stest"
	"github.com/boof-runner/boof-runner/backend/executor/wire"
	"github.com/boof-runner/boof-runner/backend/task"
)

// TestClusterJourneys runs the journeys against one test cluster: a real
// API server, controller manager and scheduler, kwok, and the node agent.
func TestClusterJourneys(t *testing.T) {
	c := startCluster(t)
	t.Run("kwok runs a Job on its fake node", func(t *testing.T) { kwokJob(t, c) })
	t.Run("a task runs remotely to done", func(t *testing.T) { remoteToDone(t, c) })
	t.Run("stop deletes the Job and nothing survives", func(t *testing.T) { stopDeletes(t, c) })
	t.Run("the desktop killed picks the Job up at start", func(t *testing.T) { desktopKilled(t, c) })
	t.Run("the API server restarted mid-task", func(t *testing.T) { apiRestart(t, c) })
	t.Run("a pod evicted mid-task keeps the finished steps", func(t *testing.T) { evicted(t, c) })
	t.Run("a large repository's bundle against git clone", func(t *testing.T) { largeRepo(t, c) })
	t.Run("bad input", func(t *testing.T) { badInput(t, c) })
}

// kwok takes a Job on its fake node from Pending to Running to Succeeded.
func kwokJob(t *testing.T, c *k8stest.Cluster) {
	ctx := context.Background()
	zero := int32(0)
	job := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: "kwok-smoke", Namespace: k8stest.Namespace},
		Spec: batchv1.JobSpec{BackoffLimit: &zero, Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
			RestartPolicy: corev1.RestartPolicyNever, NodeSelector: map[string]string{"type": "kwok"},
			Tolerations: []corev1.Toleration{{Key: "kwok.x-k8s.io/node", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}},
			Containers:  []corev1.Container{{Name: "c", Image: "busybox"}}}}}}
	if _, err := c.Client.BatchV1().Jobs(k8stest.Namespace).Create(ctx, job, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	phases := map[corev1.PodPhase]bool{}
	deadline := time.Now().Add(5 * time.Minute)
	for {
		pods, err := c.Client.CoreV1().Pods(k8stest.Namespace).List(ctx, metav1.ListOptions{LabelSelector: "batch.kubernetes.io/job-name=kwok-smoke"})
		if err == nil {
			for _, p := range pods.Items {
				phases[p.Status.Phase] = true
			}
		}
		j, err := c.Client.BatchV1().Jobs(k8stest.Namespace).Get(ctx, "kwok-smoke", metav1.GetOptions{})
		if err == nil && j.Status.Succeeded == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("kwok's Job did not succeed: phases seen %v", phases)
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("kwok's pod went through %v", phases)
	if !phases[corev1.PodRunning] && !phases[corev1.PodSucceeded] {
		t.Fatalf("phases %v", phases)
	}
}

// A task whose executor is the cluster runs as a Job (labelled, no
// retries, a deadline, the base shipped in a ConfigMap) beside a local one
// in its own slot; a prompt injected mid-step reaches the developer live
// through the pod proxy; the task ends done with its branch here holding
// the same commits (subjects, diff) as the local run of the same task, its
// leftovers, its reports, its transcripts; the Job is collected.
func remoteToDone(t *testing.T, c *k8stest.Cluster) {
	repo := newRepo(t)
	d := newDesk(t, c, repo, nil)
	prompt := "Write the feature. [[mock-await developer=1]]"
	remote := d.add(prompt)
	local := d.add(prompt, "--executor", "local")
	d.startRunner()
	d.waitEvent(remote, "the remote developer step", func(e task.Event) bool {
		s, ok := e.Data.(task.StepStarted)
		return ok && s.Role == task.RoleDeveloper
	})
	job := getJob(t, c, wire.JobName(remote, 1))
	if job.Labels[wire.LabelTask] != remote || *job.Spec.BackoffLimit != 0 || job.Spec.ActiveDeadlineSeconds == nil || *job.Spec.ActiveDeadlineSeconds <= 0 {
		t.Fatalf("the Job: labels %v backoffLimit %v deadline %v", job.Labels, *job.Spec.BackoffLimit, job.Spec.ActiveDeadlineSeconds)
	}
	cm, err := c.Client.CoreV1().ConfigMaps(k8stest.Namespace).Get(context.Background(), job.Name, metav1.GetOptions{})
	if err != nil || len(cm.BinaryData[wire.BaseFile]) == 0 || len(cm.BinaryData[wire.TaskFile]) == 0 {
		t.Fatalf("the ConfigMap: %v", err)
	}
	for _, id := range []string{remote, local} {
		d.waitEvent(id, "the developer step", func(e task.Event) bool {
			s, ok := e.Data.(task.StepStarted)
			return ok && s.Role == task.RoleDeveloper
		})
		if out, code := d.cli("inject", id, "Please also update the changelog."); code != 0 {
			t.Fatalf("inject: %s", out)
		}
		applied := d.waitEvent(id, "the injection applied live", func(e task.Event) bool {
			a, ok := e.Data.(task.InjectionApplied)
			return ok && a.Delivery == task.DeliveryLive
		})
		t.Logf("injected into %s: %+v", id, applied.Data)
	}
	rt := d.waitStatus(remote, task.StatusDone, task.StatusFailed, task.StatusStopped)
	lt := d.waitStatus(local, task.StatusDone, task.StatusFailed, task.StatusStopped)
	if rt.Status != task.StatusDone || lt.Status != task.StatusDone {
		t.Fatalf("remote %s %q, local %s %q", rt.Status, rt.Error, lt.Status, lt.Error)
	}
	base := git(t, repo, "rev-parse", "main")
	norm := func(id, s string) string { return strings.ReplaceAll(s, id, "ID") }
	for _, what := range [][]string{{"log", "--format=%s", base + "..boof-runner/"}, {"diff", base, "boof-runner/"}} {
		r := norm(remote, git(t, repo, append(what[:len(what)-1:len(what)-1], what[len(what)-1]+remote)...))
		l := norm(local, git(t, repo, append(what[:len(what)-1:len(what)-1], what[len(what)-1]+local)...))
		if r != l || r == "" {
			t.Fatalf("git %v differs:\nremote: %s\nlocal:  %s", what, r, l)
		}
	}
	if !refExists(repo, "boof-runner/"+remote+"--leftovers") || refExists(repo, wire.WipRef(remote)) {
		t.Fatal("the leftovers branch is missing or the snapshot ref was left")
	}
	if rt.HeadSHA != git(t, repo, "rev-parse", "boof-runner/"+remote) || rt.Branch != "boof-runner/"+remote {
		t.Fatalf("the task records branch %q head %q", rt.Branch, rt.HeadSHA)
	}
	checkRecords(t, d, remote)
	waitGone(t, c, remote)
}

// checkRecords: the remote run's reports, executions and transcripts are
// here, as a local run's are.
func checkRecords(t *testing.T, d *desk, id string) {
	t.Helper()
	ctx := context.Background()
	secs, _ := d.st.Sections(ctx, id)
	kinds := map[task.SectionKind]int{}
	for _, s := range secs {
		kinds[s.Kind]++
	}
	if kinds[task.SectionPlannerReport] != 1 || kinds[task.SectionFinalPlan] != 1 || kinds[task.SectionDeveloperReport] != 1 ||
		kinds[task.SectionReviewerReport] != 1 || kinds[task.SectionInjectedPrompt] != 1 {
		t.Fatalf("sections %v", kinds)
	}
	execs, _ := d.st.Executions(ctx, id)
	if len(execs) != 4 {
		t.Fatalf("%d executions, want 4", len(execs))
	}
	for _, e := range execs {
		if e.EndedAt == nil || e.Outcome != task.OutcomeSucceeded {
			t.Fatalf("execution %+v", e)
		}
		if b, err := os.ReadFile(e.TranscriptPath); err != nil || len(b) == 0 {
			t.Fatalf("transcript of %s: %v (%d bytes)", e.Role, err, len(b))
		}
	}
}

// A stop while the developer works deletes the Job (foreground); the pod
// hands its work back first; the task is stopped by the user with its
// work kept; no Job, pod, ConfigMap or pod process survives.
func stopDeletes(t *testing.T, c *k8stest.Cluster) {
	repo := newRepo(t)
	d := newDesk(t, c, repo, nil)
	id := d.add("Slow work. [[mock-delay developer=3000]]")
	d.startRunner()
	d.waitEvent(id, "the developer step", func(e task.Event) bool {
		s, ok := e.Data.(task.StepStarted)
		return ok && s.Role == task.RoleDeveloper
	})
	pids := c.Agent.Pids()
	if len(pids) == 0 {
		t.Fatal("no pod process runs")
	}
	if out, code := d.cli("stop", id); code != 0 {
		t.Fatalf("stop: %s", out)
	}
	tk := d.waitStatus(id, task.StatusStopped, task.StatusFailed, task.StatusDone)
	if tk.Status != task.StatusStopped || tk.Error != "stopped by user" {
		t.Fatalf("after stop: %s %q", tk.Status, tk.Error)
	}
	if !refExists(repo, "boof-runner/"+id) {
		t.Fatal("the task branch is not here")
	}
	waitGone(t, c, id)
	for _, pid := range pids {
		if syscall.Kill(pid, 0) == nil {
			t.Fatalf("pod process %d survived", pid)
		}
	}
}

// waitGone waits until no Job, pod or ConfigMap of the task is left.
func waitGone(t *testing.T, c *k8stest.Cluster, id string) {
	t.Helper()
	ctx := context.Background()
	sel := metav1.ListOptions{LabelSelector: wire.LabelTask + "=" + id}
	deadline := time.Now().Add(5 * time.Minute)
	for {
		jobs, err1 := c.Client.BatchV1().Jobs(k8stest.Namespace).List(ctx, sel)
		pods, err2 := c.Client.CoreV1().Pods(k8stest.Namespace).List(ctx, sel)
		cms, err3 := c.Client.CoreV1().ConfigMaps(k8stest.Namespace).List(ctx, sel)
		if err1 == nil && err2 == nil && err3 == nil && len(jobs.Items)+len(pods.Items)+len(cms.Items) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the task's objects are still there: %v %v %v", names(jobs), len(pods.Items), len(cms.Items))
		}
		time.Sleep(250 * time.Millisecond)
	}
}

func names(jobs *batchv1.JobList) []string {
	var out []string
	for _, j := range jobs.Items {
		out = append(out, j.Name)
	}
	return out
}

func getJob(t *testing.T, c *k8stest.Cluster, name string) *batchv1.Job {
	t.Helper()
	j, err := c.Client.BatchV1().Jobs(k8stest.Namespace).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("job %s: %v", name, err)
	}
	return j
}

// The desktop killed (kill -9) while its task runs in the cluster leaves
// the Job running; at the next start recovery adopts the task, follows the
// Job and collects its outcome: done, with its branch.
func desktopKilled(t *testing.T, c *k8stest.Cluster) {
	repo := newRepo(t)
	d := newDesk(t, c, repo, nil)
	id := d.add("Work across a crash. [[mock-delay developer=1500]]")
	d.startRunner()
	d.waitEvent(id, "the developer step", func(e task.Event) bool {
		s, ok := e.Data.(task.StepStarted)
		return ok && s.Role == task.RoleDeveloper
	})
	d.killRunner()
	if getJob(t, c, wire.JobName(id, 1)).Status.Active != 1 {
		t.Fatal("the Job does not run on after the desktop's crash")
	}
	d.startRunner()
	tk := d.waitStatus(id, task.StatusDone, task.StatusFailed, task.StatusStopped)
	if tk.Status != task.StatusDone || !refExists(repo, "boof-runner/"+id) {
		t.Fatalf("after the restart: %s %q", tk.Status, tk.Error)
	}
	logs, _ := d.st.Log(context.Background(), id, 0, 0)
	if !hasLine(logs, "goes on in the cluster") {
		t.Fatal("the log does not say the task was followed after the restart")
	}
	checkNoDuplicateSteps(t, d, id)
	waitGone(t, c, id)
}

// checkNoDuplicateSteps: a stream read again after a restart applied no
// record twice.
func checkNoDuplicateSteps(t *testing.T, d *desk, id string) {
	t.Helper()
	evs, _ := d.st.Events(context.Background(), id, time.Time{})
	started := 0
	for _, e := range evs {
		if _, ok := e.Data.(task.StepStarted); ok {
			started++
		}
	}
	if started != 4 {
		t.Fatalf("%d step_started events, want 4", started)
	}
}

func hasLine(logs []task.LogLine, s string) bool {
	for _, l := range logs {
		if strings.Contains(l.Text, s) {
			return true
		}
	}
	return false
}

// The API server restarted while the developer works: the follower and
// the node agent ride it out; the task ends done, no record twice.
func apiRestart(t *testing.T, c *k8stest.Cluster) {
	repo := newRepo(t)
	d := newDesk(t, c, repo, nil)
	id := d.add("Work across a restart. [[mock-delay developer=1500]]")
	d.startRunner()
	d.waitEvent(id, "the developer step", func(e task.Event) bool {
		s, ok := e.Data.(task.StepStarted)
		return ok && s.Role == task.RoleDeveloper
	})
	c.RestartAPIServer(t, 3*time.Second)
	tk := d.waitStatus(id, task.StatusDone, task.StatusFailed, task.StatusStopped)
	if tk.Status != task.StatusDone {
		t.Fatalf("after the API server's restart: %s %q", tk.Status, tk.Error)
	}
	checkNoDuplicateSteps(t, d, id)
	waitGone(t, c, id)
}

// A pod evicted while the reviewer works: the task is stopped saying so,
// with the finished steps' work (the developer's commit and its
// uncommitted leftovers, from the last checkpoint) kept here.
func evicted(t *testing.T, c *k8stest.Cluster) {
	repo := newRepo(t)
	d := newDesk(t, c, repo, nil)
	id := d.add("Work, then lose the pod. [[mock-delay reviewer=3000]]")
	d.startRunner()
	d.waitEvent(id, "the reviewer step", func(e task.Event) bool {
		s, ok := e.Data.(task.StepStarted)
		return ok && s.Role == task.RoleReviewer
	})
	pods, err := c.Client.CoreV1().Pods(k8stest.Namespace).List(context.Background(), metav1.ListOptions{LabelSelector: wire.LabelTask + "=" + id})
	if err != nil || len(pods.Items) != 1 {
		t.Fatalf("the task's pod: %v %d", err, len(pods.Items))
	}
	if err := c.Agent.Evict(pods.Items[0].Name); err != nil {
		t.Fatal(err)
	}
	tk := d.waitStatus(id, task.StatusStopped, task.StatusFailed, task.StatusDone)
	if tk.Status != task.StatusStopped || !strings.Contains(tk.Error, "evicted") || strings.Contains(tk.Error, "\n") {
		t.Fatalf("after the eviction: %s %q", tk.Status, tk.Error)
	}
	base := git(t, repo, "rev-parse", "main")
	if git(t, repo, "log", "--format=%s", base+"..boof-runner/"+id) == "" {
		t.Fatal("the developer's commit was not kept")
	}
	if !refExists(repo, "boof-runner/"+id+"--leftovers") {
		t.Fatal("the developer's uncommitted work was not kept")
	}
	secs, _ := d.st.Sections(context.Background(), id)
	dev := 0
	for _, s := range secs {
		if s.Kind == task.SectionDeveloperReport {
			dev++
		}
	}
	if dev != 1 {
		t.Fatalf("%d developer reports kept, want 1", dev)
	}
	waitGone(t, c, id)
}

// A repository whose bundle is far above a ConfigMap's 1 MiB: the desktop
// serves it, an init container fetches it, and the task runs to done.
// The bundle's making and fetch are measured against a git clone of the
// same repository (logged; a shared machine's times are not asserted).
func largeRepo(t *testing.T, c *k8stest.Cluster) {
	repo := newRepo(t)
	for i := 0; i < 40; i++ { // ~40 MB of incompressible history
		b := make([]byte, 1<<20)
		f, _ := os.Open("/dev/urandom")
		_, _ = f.Read(b)
		f.Close()
		if err := os.WriteFile(filepath.Join(repo, fmt.Sprintf("blob%02d.bin", i)), b, 0o644); err != nil {
			t.Fatal(err)
		}
		git(t, repo, "add", "-A")
		git(t, repo, "commit", "-qm", fmt.Sprintf("blob %d", i))
	}
	t0 := time.Now()
	clone := filepath.Join(t.TempDir(), "clone")
	if out, err := exec.Command("git", "clone", "-q", "--no-local", repo, clone).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v %s", err, out)
	}
	cloneTime := time.Since(t0)
	d := newDesk(t, c, repo, map[string]any{"bundleAddress": k8stest.PodNet + ".1:0"})
	id := d.add("Work on a large repository.")
	t1 := time.Now()
	d.startRunner()
	d.waitEvent(id, "the planner step", func(e task.Event) bool { _, ok := e.Data.(task.StepStarted); return ok })
	shipTime := time.Since(t1)
	tk := d.waitStatus(id, task.StatusDone, task.StatusFailed, task.StatusStopped)
	if tk.Status != task.StatusDone {
		t.Fatalf("the large repository's task: %s %q", tk.Status, tk.Error)
	}
	t.Logf("40 MiB repository: git clone --no-local %.2f s; bundle made, served and fetched by the init container until the first step started %.2f s (ratio %.2f)",
		cloneTime.Seconds(), shipTime.Seconds(), shipTime.Seconds()/cloneTime.Seconds())
	waitGone(t, c, id)
}

// Bad input: each gives one clear line on the task, keeps the work and
// imports nothing of a run that did not happen or did not match.
func badInput(t *testing.T, c *k8stest.Cluster) {
	cases := []struct {
		name     string
		executor map[string]any
		prompt   string
		want     string
		during   func(t *testing.T, d *desk, id string)
		status   task.Status
	}{
		{name: "unreachable cluster", executor: map[string]any{"context": k8stest.ContextDown}, want: "The cluster cannot be reached: the API server at https://" + k8stest.PodNet + ".1:1 cannot be reached", status: task.StatusFailed},
		{name: "kubeconfig without the context", executor: map[string]any{"context": "nope"}, want: `has no context "nope"`, status: task.StatusFailed},
		{name: "RBAC refusal", executor: map[string]any{"context": k8stest.ContextLimited}, want: "in namespace boof was forbidden (RBAC)", status: task.StatusFailed},
		{name: "image that does not exist", executor: map[string]any{"image": imageMissing}, want: "The task's image cannot be pulled: the image " + imageMissing + " (ImagePullBackOff)", status: task.StatusFailed},
		{name: "result that does not match the task", executor: map[string]any{"image": imageForeign}, want: "does not start from the task's base", status: task.StatusFailed},
		{name: "Job deleted by someone else", prompt: "Slow. [[mock-delay developer=3000]]", want: "The task's Job was deleted outside Boof Runner", status: task.StatusStopped,
			during: func(t *testing.T, d *desk, id string) {
				d.waitEvent(id, "the developer step", func(e task.Event) bool {
					s, ok := e.Data.(task.StepStarted)
					return ok && s.Role == task.RoleDeveloper
				})
				bg := metav1.DeletePropagationBackground
				if err := c.Client.BatchV1().Jobs(k8stest.Namespace).Delete(context.Background(), wire.JobName(id, 1), metav1.DeleteOptions{PropagationPolicy: &bg}); err != nil && !apierrors.IsNotFound(err) {
					t.Fatal(err)
				}
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			repo := newRepo(t)
			d := newDesk(t, c, repo, tc.executor)
			prompt := tc.prompt
			if prompt == "" {
				prompt = "Bad input: " + tc.name
			}
			id := d.add(prompt)
			d.startRunner()
			if tc.during != nil {
				tc.during(t, d, id)
			}
			tk := d.waitStatus(id, task.StatusFailed, task.StatusStopped, task.StatusDone)
			if tk.Status != tc.status || !strings.Contains(tk.Error, tc.want) || strings.Contains(tk.Error, "\n") {
				t.Fatalf("%s %q, want %s with %q on one line", tk.Status, tk.Error, tc.status, tc.want)
			}
			t.Logf("the task says: %s", tk.Error)
			if tc.status == task.StatusFailed && refExists(repo, "boof-runner/"+id) {
				t.Fatal("a branch was imported from a run that failed or did not match")
			}
			if tc.name == "result that does not match the task" {
				kept, _ := filepath.Glob(filepath.Join(d.root, "remote", id, "checkpoint-*.bundle"))
				if len(kept) != 1 {
					t.Fatalf("the unmatched bundle is not kept: %v", kept)
				}
			}
			d.stopRunner()
			waitGone(t, c, id)
		})
	}
}
