//go:build k8s && linux

package k8stest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// podRun is one pod on the node.
type podRun struct {
	a         *Agent
	uid       types.UID
	ns, name  string
	ip, dir   string
	done      chan struct{}
	terminate func(grace time.Duration)

	mu       sync.Mutex
	cmd      *exec.Cmd
	exited   chan struct{}
	stopping bool
	evicted  bool
	stopOnce sync.Once
	stop     chan time.Duration
	// logs are the containers' log files by container name; running
	// those whose process has not exited.
	logs    map[string]string
	running map[string]bool
}

func (a *Agent) newPod(pod *corev1.Pod) *podRun {
	pr := &podRun{a: a, uid: pod.UID, ns: pod.Namespace, name: pod.Name, ip: a.allocIP(),
		dir: filepath.Join(a.o.Dir, pod.Namespace+"_"+pod.Name+"_"+string(pod.UID)), done: make(chan struct{}),
		stop: make(chan time.Duration, 1), logs: map[string]string{}, running: map[string]bool{}}
	pr.terminate = func(grace time.Duration) {
		pr.stopOnce.Do(func() { pr.stop <- grace })
	}
	return pr
}

// run runs the pod to its end: its volumes, its init containers in turn,
// then its container; a deletion terminates it and removes the pod.
func (pr *podRun) run(pod *corev1.Pod) {
	defer close(pr.done)
	ctx := pr.a.ctx
	if image := failingImage(pod, pr.a.o.FailImages); image != "" {
		pr.pullForever(ctx, pod, image)
		return
	}
	mounts, err := pr.volumes(ctx, pod)
	if err != nil {
		pr.setStatus(ctx, func(s *corev1.PodStatus) {
			s.Phase, s.Reason, s.Message = corev1.PodFailed, "VolumeFailed", err.Error()
		})
		pr.waitDeleted(ctx, pod)
		return
	}
	pr.setStatus(ctx, func(s *corev1.PodStatus) {
		now := metav1.Now()
		s.Phase, s.PodIP, s.HostIP, s.StartTime = corev1.PodPending, pr.ip, pr.a.ip, &now
		s.PodIPs = []corev1.PodIP{{IP: pr.ip}}
	})
	for i, c := range pod.Spec.InitContainers {
		code, stopped := pr.container(ctx, pod, c, mounts, true, i)
		if stopped || code != 0 {
			pr.end(ctx, pod, code, stopped)
			return
		}
	}
	code, stopped := pr.container(ctx, pod, pod.Spec.Containers[0], mounts, false, 0)
	pr.end(ctx, pod, code, stopped)
}

// end records the pod's end; a deleted pod is removed.
func (pr *podRun) end(ctx context.Context, pod *corev1.Pod, code int, stopped bool) {
	pr.mu.Lock()
	evicted := pr.evicted
	pr.mu.Unlock()
	pr.setStatus(ctx, func(s *corev1.PodStatus) {
		switch {
		case evicted:
			s.Phase, s.Reason, s.Message = corev1.PodFailed, "Evicted", "The node was low on resource: memory."
		case code == 0 && !stopped:
			s.Phase = corev1.PodSucceeded
		default:
			s.Phase = corev1.PodFailed
		}
	})
	if stopped && !evicted {
		pr.waitDeleted(ctx, pod)
	}
}

// container runs one container to its exit (or its termination) and
// reports it; it returns its exit code and whether a deletion stopped it.
func (pr *podRun) container(ctx context.Context, pod *corev1.Pod, c corev1.Container, mounts map[string]string, init bool, index int) (int, bool) {
	cmd, err := pr.command(ctx, pod, c, mounts)
	if err != nil {
		pr.containerStatus(ctx, pod, c, init, corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CreateContainerError", Message: err.Error()}})
		return 128, false
	}
	started := metav1.Now()
	if err := cmd.Start(); err != nil {
		pr.containerStatus(ctx, pod, c, init, corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "RunContainerError", Message: err.Error()}})
		return 128, false
	}
	exited := make(chan struct{})
	pr.mu.Lock()
	pr.cmd, pr.exited, pr.running[c.Name] = cmd, exited, true
	pr.mu.Unlock()
	code := -1
	go func() {
		err := cmd.Wait()
		code = cmd.ProcessState.ExitCode()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			code = 128 + int(ws.Signal())
		}
		_ = err
		pr.mu.Lock()
		pr.running[c.Name] = false
		pr.mu.Unlock()
		close(exited)
	}()
	pr.containerStatus(ctx, pod, c, init, corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: started}})
	stopped := false
	select {
	case <-exited:
	case grace := <-pr.stop:
		stopped = true
		pr.signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(grace):
			pr.signal(syscall.SIGKILL)
			<-exited
		}
		pr.stop <- grace // the next container (none) and waitDeleted see it too
	}
	pr.containerStatus(ctx, pod, c, init, corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: int32(code),
		StartedAt: started, FinishedAt: metav1.Now(), Reason: reason(code)}})
	return code, stopped
}

func reason(code int) string {
	switch {
	case code == 0:
		return "Completed"
	case code == 137:
		return "OOMKilled"
	}
	return "Error"
}

// command makes a container's process: its command found on the image's
// PATH, its mount paths mapped to the pod's folders, its environment.
func (pr *podRun) command(ctx context.Context, pod *corev1.Pod, c corev1.Container, mounts map[string]string) (*exec.Cmd, error) {
	path, ok := pr.a.o.Images[c.Image]
	if !ok {
		return nil, fmt.Errorf("the node has no image %s", c.Image)
	}
	argv := append(append([]string{}, c.Command...), c.Args...)
	if len(argv) == 0 {
		return nil, fmt.Errorf("container %s has no command", c.Name)
	}
	if !strings.Contains(argv[0], "/") {
		argv[0] = filepath.Join(path, argv[0])
	}
	for i := range argv[1:] {
		argv[i+1] = mapPath(argv[i+1], c.VolumeMounts, mounts)
	}
	env, err := pr.env(ctx, pod, c, path)
	if err != nil {
		return nil, err
	}
	logPath := filepath.Join(pr.dir, "logs", c.Name+".log")
	if err := os.MkdirAll(filepath.Dir(logPath), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(logPath, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, err
	}
	pr.mu.Lock()
	pr.logs[c.Name] = logPath
	pr.mu.Unlock()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env, cmd.Dir = env, pr.dir
	cmd.Stdout, cmd.Stderr = f, f
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	return cmd, nil
}

// mapPath maps an argument under a mount path to the pod's folder.
func mapPath(arg string, vms []corev1.VolumeMount, mounts map[string]string) string {
	for _, vm := range vms {
		dir, ok := mounts[vm.Name]
		if !ok {
			continue
		}
		if arg == vm.MountPath {
			return dir
		}
		if strings.HasPrefix(arg, vm.MountPath+"/") {
			return dir + arg[len(vm.MountPath):]
		}
	}
	return arg
}

// env is the container's environment: the image's PATH, a HOME and TMPDIR
// of the pod's, its env (values, the downward API, Secret and ConfigMap
// keys) and envFrom.
func (pr *podRun) env(ctx context.Context, pod *corev1.Pod, c corev1.Container, path string) ([]string, error) {
	home, tmp := filepath.Join(pr.dir, "home"), filepath.Join(pr.dir, "tmp")
	for _, d := range []string{home, tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	env := []string{"PATH=" + path + ":/usr/local/bin:/usr/bin:/bin", "HOME=" + home, "TMPDIR=" + tmp, "HOSTNAME=" + pod.Name}
	for _, from := range c.EnvFrom {
		if from.SecretRef != nil {
			s, err := pr.a.cs.CoreV1().Secrets(pr.ns).Get(ctx, from.SecretRef.Name, metav1.GetOptions{})
			if err != nil {
				return nil, fmt.Errorf("secret %s: %w", from.SecretRef.Name, err)
			}
			for k, v := range s.Data {
				env = append(env, from.Prefix+k+"="+string(v))
			}
		}
	}
	for _, e := range c.Env {
		v := e.Value
		if e.ValueFrom != nil && e.ValueFrom.FieldRef != nil {
			switch e.ValueFrom.FieldRef.FieldPath {
			case "status.podIP":
				v = pr.ip
			case "metadata.name":
				v = pod.Name
			case "metadata.namespace":
				v = pod.Namespace
			case "spec.nodeName":
				v = NodeName
			}
		}
		env = append(env, e.Name+"="+v)
	}
	return env, nil
}

// volumes makes the pod's folders: a ConfigMap's or Secret's keys as files
// (waiting for it a while, as a kubelet does), an empty folder for an
// emptyDir; it returns them by volume name.
func (pr *podRun) volumes(ctx context.Context, pod *corev1.Pod) (map[string]string, error) {
	out := map[string]string{}
	for _, v := range pod.Spec.Volumes {
		dir := filepath.Join(pr.dir, "volumes", v.Name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		out[v.Name] = dir
		files := map[string][]byte{}
		switch {
		case v.ConfigMap != nil:
			cm, err := waitGet(ctx, func(ctx context.Context) (*corev1.ConfigMap, error) {
				return pr.a.cs.CoreV1().ConfigMaps(pr.ns).Get(ctx, v.ConfigMap.Name, metav1.GetOptions{})
			})
			if err != nil {
				return nil, fmt.Errorf("configmap %s: %w", v.ConfigMap.Name, err)
			}
			for k, s := range cm.Data {
				files[k] = []byte(s)
			}
			for k, b := range cm.BinaryData {
				files[k] = b
			}
		case v.Secret != nil:
			s, err := waitGet(ctx, func(ctx context.Context) (*corev1.Secret, error) {
				return pr.a.cs.CoreV1().Secrets(pr.ns).Get(ctx, v.Secret.SecretName, metav1.GetOptions{})
			})
			if err != nil {
				return nil, fmt.Errorf("secret %s: %w", v.Secret.SecretName, err)
			}
			files = s.Data
		}
		for k, b := range files {
			if err := os.WriteFile(filepath.Join(dir, k), b, 0o644); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// waitGet gets an object, trying for a minute while it is not there or the
// API server cannot answer.
func waitGet[T any](ctx context.Context, get func(context.Context) (T, error)) (T, error) {
	deadline := time.Now().Add(time.Minute)
	for {
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		v, err := get(cctx)
		cancel()
		if err == nil || time.Now().After(deadline) || ctx.Err() != nil {
			return v, err
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// pullForever leaves the pod waiting on an image that never pulls until
// it is deleted.
func (pr *podRun) pullForever(ctx context.Context, pod *corev1.Pod, image string) {
	for i, reason := range []string{"ErrImagePull", "ImagePullBackOff"} {
		if i > 0 {
			time.Sleep(time.Second)
		}
		msg := fmt.Sprintf("Back-off pulling image %q: failed to resolve reference %q: not found", image, image)
		for _, c := range pod.Spec.Containers {
			pr.containerStatus(ctx, pod, c, false, corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason, Message: msg}})
		}
	}
	pr.waitDeleted(ctx, pod)
}

func failingImage(pod *corev1.Pod, fail []string) string {
	for _, c := range append(append([]corev1.Container{}, pod.Spec.InitContainers...), pod.Spec.Containers...) {
		if slices.Contains(fail, c.Image) {
			return c.Image
		}
	}
	return ""
}

// waitDeleted waits for the pod's deletion (or the agent's end) and
// removes the pod.
func (pr *podRun) waitDeleted(ctx context.Context, pod *corev1.Pod) {
	select {
	case <-ctx.Done():
		return
	case g := <-pr.stop:
		pr.stop <- g
	}
	pr.a.finalize(pod)
}

// setStatus changes the pod's status through the API, trying again on a
// conflict and while the API server cannot answer.
func (pr *podRun) setStatus(ctx context.Context, change func(*corev1.PodStatus)) {
	for ctx.Err() == nil {
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		pod, err := pr.a.cs.CoreV1().Pods(pr.ns).Get(cctx, pr.name, metav1.GetOptions{})
		// A failed Get returns an empty pod, not another pod of the name:
		// only a pod that was read can be another one (then ours is gone).
		other := err == nil && pod.UID != pr.uid
		if err == nil && !other {
			change(&pod.Status)
			_, err = pr.a.cs.CoreV1().Pods(pr.ns).UpdateStatus(cctx, pod, metav1.UpdateOptions{})
		}
		cancel()
		if err == nil || other || apierrors.IsNotFound(err) {
			return
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// containerStatus records a container's state.
func (pr *podRun) containerStatus(ctx context.Context, pod *corev1.Pod, c corev1.Container, init bool, st corev1.ContainerState) {
	pr.setStatus(ctx, func(s *corev1.PodStatus) {
		list := &s.ContainerStatuses
		if init {
			list = &s.InitContainerStatuses
		}
		cs := corev1.ContainerStatus{Name: c.Name, Image: c.Image, ImageID: "boof-agent://" + c.Image, State: st,
			Ready: st.Running != nil, Started: boolPtr(st.Running != nil), ContainerID: "boof-agent://" + string(pr.uid) + "/" + c.Name}
		for i := range *list {
			if (*list)[i].Name == c.Name {
				(*list)[i] = cs
				return
			}
		}
		*list = append(*list, cs)
		if st.Running != nil && !init {
			s.Phase = corev1.PodRunning
		}
	})
}

func boolPtr(b bool) *bool { return &b }

func (pr *podRun) signal(sig syscall.Signal) {
	pr.mu.Lock()
	cmd := pr.cmd
	pr.mu.Unlock()
	if cmd != nil && cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, sig)
	}
}

// kill ends the pod's processes at once (the agent stops, or the pod is
// gone from the API).
func (pr *podRun) kill() {
	pr.signal(syscall.SIGKILL)
	pr.terminate(0)
}

// evict kills the container at once and leaves the pod Failed (Evicted).
func (pr *podRun) evict() {
	pr.mu.Lock()
	pr.evicted = true
	pr.mu.Unlock()
	pr.signal(syscall.SIGKILL)
}

func (pr *podRun) finished() bool {
	select {
	case <-pr.done:
		return true
	default:
		return false
	}
}

func (pr *podRun) pid() int {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	if pr.cmd == nil || pr.cmd.Process == nil || !pr.runningAny() {
		return 0
	}
	return pr.cmd.Process.Pid
}

func (pr *podRun) runningAny() bool {
	for _, r := range pr.running {
		if r {
			return true
		}
	}
	return false
}
