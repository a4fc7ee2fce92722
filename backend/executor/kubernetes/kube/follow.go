package kube

import (
	"context"
	"fmt"
	"sort"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/boof-runner/boof-runner/backend/executor/wire"
)

// pollEvery is how often the Job and its pod are read.
const pollEvery = time.Second

// unreachableFor is how long the API server may stay unreachable (a
// restart) before the run is reported lost.
const unreachableFor = 5 * time.Minute

// imagePullReasons are the waiting reasons of a container whose image
// cannot be pulled.
var imagePullReasons = map[string]bool{"ErrImagePull": true, "ImagePullBackOff": true, "InvalidImageName": true, "ErrImageNeverPull": true}

// follower is the state of following one Job's pod.
type podFollower struct {
	r *run
	// logs reads the pod's log; lines counts the lines already printed
	// (a stream read again after a break skips them).
	logs    *logStream
	lines   int
	pulling time.Time
	phase   wire.Status
	failing time.Time
}

// follow reads the Job and its pod every pollEvery, prints the pod's
// phase when it changes and its log line by line, and prints the end once
// the Job finished (or is gone) and its log was read to the end. It
// returns false when it printed an error instead.
func (r *run) follow(ctx context.Context) bool {
	f := &podFollower{r: r}
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	defer f.stopLogs()
	for {
		end, err := f.look(ctx)
		switch {
		case err != nil:
			r.em.fail(r.c, err, "following the task's Job")
			return false
		case end != nil:
			r.em.emit(*end)
			return end.Kind == wire.StatusEnd // an error (the image) ends exec-remote as fail does
		}
		select {
		case <-ctx.Done():
			return false
		case <-tick.C:
		}
	}
}

// look reads the Job and its pod once; it returns the end when the run is
// over, an error when it cannot go on.
func (f *podFollower) look(ctx context.Context) (*wire.Status, error) {
	c, spec := f.r.c, f.r.spec
	job, err := c.cs.BatchV1().Jobs(c.ns).Get(ctx, spec.Job, metav1.GetOptions{})
	gone := apierrors.IsNotFound(err)
	if err != nil && !gone {
		return nil, f.transient(err, "reading Job "+spec.Job)
	}
	pod, err := f.pod(ctx)
	if err != nil {
		return nil, f.transient(err, "reading the Job's pod")
	}
	f.failing = time.Time{}
	if pod != nil {
		if end := f.watchPod(ctx, pod); end != nil {
			return end, nil
		}
	}
	if f.logs != nil && !f.logs.finished() {
		return nil, nil // the log is still being read
	}
	if f.logs != nil && pod != nil && (!terminated(pod) || !f.logs.complete()) {
		// The stream broke (the API server restarted), maybe after the
		// container ended: read the rest again before the end.
		f.stopLogs()
		return nil, nil
	}
	switch {
	case gone && pod == nil:
		return &wire.Status{Kind: wire.StatusEnd, Phase: "Gone", Message: "the Job " + spec.Job + " was deleted"}, nil
	case gone:
		return nil, nil // deleted, its pod still terminating
	}
	for _, cond := range job.Status.Conditions {
		if cond.Status != corev1.ConditionTrue {
			continue
		}
		switch cond.Type {
		case batchv1.JobComplete:
			return &wire.Status{Kind: wire.StatusEnd, Phase: "Succeeded"}, nil
		case batchv1.JobFailed:
			if pod == nil || terminated(pod) {
				end := &wire.Status{Kind: wire.StatusEnd, Phase: "Failed", Reason: cond.Reason, Message: cond.Message}
				if pod != nil && pod.Status.Reason != "" { // Evicted says more than BackoffLimitExceeded
					end.Reason, end.Message = pod.Status.Reason, pod.Status.Message
				}
				return end, nil
			}
		}
	}
	return nil, nil
}

// transient lets errors that may pass (the API server restarting) pass for
// unreachableFor; after that, or for any other error, it returns them.
func (f *podFollower) transient(err error, what string) error {
	if !retryable(err) {
		return f.r.c.classify(err, what)
	}
	if f.failing.IsZero() {
		f.failing = time.Now()
	}
	if time.Since(f.failing) > unreachableFor {
		return f.r.c.classify(err, what)
	}
	return nil
}

// pod returns the newest pod of the Job (nil when there is none).
func (f *podFollower) pod(ctx context.Context) (*corev1.Pod, error) {
	c, spec := f.r.c, f.r.spec
	list, err := c.cs.CoreV1().Pods(c.ns).List(ctx, metav1.ListOptions{LabelSelector: wire.LabelTask + "=" + spec.TaskID + ",batch.kubernetes.io/job-name=" + spec.Job})
	if err != nil {
		return nil, err
	}
	if len(list.Items) == 0 {
		return nil, nil
	}
	sort.Slice(list.Items, func(i, j int) bool {
		return list.Items[i].CreationTimestamp.After(list.Items[j].CreationTimestamp.Time)
	})
	return &list.Items[0], nil
}

// watchPod prints the pod's phase when it changes, gives up on an image
// that cannot be pulled, and starts reading the log once the task's
// container started.
func (f *podFollower) watchPod(ctx context.Context, pod *corev1.Pod) *wire.Status {
	f.r.mu.Lock()
	f.r.pod = pod.Name
	f.r.mu.Unlock()
	s := wire.Status{Kind: wire.StatusPhase, Pod: pod.Name, Phase: string(pod.Status.Phase), Reason: pod.Status.Reason, Message: pod.Status.Message}
	if pod.DeletionTimestamp != nil {
		s.Phase = "Terminating"
	}
	waiting := waitingState(pod)
	if waiting != nil {
		s.Reason, s.Message = waiting.Reason, waiting.Message
	}
	if s.Phase != f.phase.Phase || s.Reason != f.phase.Reason {
		f.phase = s
		f.r.em.emit(s)
	}
	if waiting != nil && imagePullReasons[waiting.Reason] {
		if f.pulling.IsZero() {
			f.pulling = time.Now()
		}
		giveUp := time.Duration(f.r.spec.ImagePullGiveUpSeconds) * time.Second
		if waiting.Reason == "InvalidImageName" || time.Since(f.pulling) >= giveUp {
			_ = f.r.c.deleteJob(context.WithoutCancel(ctx), f.r.spec.Job, true)
			return &wire.Status{Kind: wire.StatusError, Class: wire.ErrorImage,
				Message: fmt.Sprintf("%s (%s) in pod %s: %s; the Job was deleted", imageOf(pod), waiting.Reason, pod.Name, oneLine(waiting.Message))}
		}
	} else {
		f.pulling = time.Time{}
	}
	if f.logs == nil && started(pod) {
		f.logs = f.r.c.streamLog(ctx, pod.Name, f.lines, func(line string) {
			f.r.em.emit(wire.Status{Kind: wire.StatusLine, Line: line})
		}, &f.lines)
	}
	return nil
}

func (f *podFollower) stopLogs() {
	if f.logs != nil {
		f.logs.stop()
		f.logs = nil
	}
}

// waitingState is the waiting state of the pod's first waiting container
// (init containers first).
func waitingState(pod *corev1.Pod) *corev1.ContainerStateWaiting {
	for _, list := range [][]corev1.ContainerStatus{pod.Status.InitContainerStatuses, pod.Status.ContainerStatuses} {
		for _, cs := range list {
			if cs.State.Waiting != nil && cs.State.Waiting.Reason != "" {
				return cs.State.Waiting
			}
		}
	}
	return nil
}

func imageOf(pod *corev1.Pod) string {
	for _, list := range [][]corev1.ContainerStatus{pod.Status.InitContainerStatuses, pod.Status.ContainerStatuses} {
		for _, cs := range list {
			if cs.State.Waiting != nil {
				return "the image " + cs.Image
			}
		}
	}
	return "the image"
}

// started reports whether the task's container runs or ran.
func started(pod *corev1.Pod) bool {
	for _, cs := range pod.Status.ContainerStatuses {
		if cs.Name == ContainerName && (cs.State.Running != nil || cs.State.Terminated != nil) {
			return true
		}
	}
	return false
}

// terminated reports whether the task's container ended (or the pod did).
func terminated(pod *corev1.Pod) bool {
	if pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed {
		return true
	}
	for _, cs := range pod.Status.ContainerStatuses {
		if cs.Name == ContainerName && cs.State.Terminated != nil {
			return true
		}
	}
	return false
}
