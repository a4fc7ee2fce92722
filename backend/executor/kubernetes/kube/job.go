package kube

import (
	"context"
	"fmt"
	"strconv"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/boof-runner/boof-runner/backend/executor/wire"
)

// Paths inside the task's container.
const (
	inDir      = "/boof/in"
	workDir    = "/boof/work"
	fetchedDir = "/boof/fetched"
	// ContainerName is the task's container.
	ContainerName = "task"
)

// labels are the labels of every object of a task's run.
func labels(spec wire.Spec) map[string]string {
	return map[string]string{wire.LabelTask: spec.TaskID, "app.kubernetes.io/managed-by": "boof-runner"}
}

// Objects returns the ConfigMap and the Job of spec's run (exported for
// the documentation's example and the tests).
func Objects(spec wire.Spec) (*corev1.ConfigMap, *batchv1.Job, error) {
	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: spec.Job, Namespace: spec.Namespace, Labels: labels(spec)},
		BinaryData: map[string][]byte{wire.TaskFile: spec.Input},
	}
	if len(spec.Bundle) > 0 {
		cm.BinaryData[wire.BaseFile] = spec.Bundle
	}
	res, err := resources(spec.Resources)
	if err != nil {
		return nil, nil, err
	}
	command := []string{"boof-runner", "exec-task", "--in", inDir, "--work", workDir}
	volumes := []corev1.Volume{
		{Name: "in", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: spec.Job}}}},
		{Name: "work", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
	}
	mounts := []corev1.VolumeMount{{Name: "in", MountPath: inDir, ReadOnly: true}, {Name: "work", MountPath: workDir}}
	var inits []corev1.Container
	if spec.BundleURL != "" {
		bundle := fetchedDir + "/" + wire.BaseFile
		command = append(command, "--bundle", bundle)
		volumes = append(volumes, corev1.Volume{Name: "fetched", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}})
		fetchMount := corev1.VolumeMount{Name: "fetched", MountPath: fetchedDir}
		mounts = append(mounts, fetchMount)
		inits = []corev1.Container{{Name: "fetch-base", Image: spec.Image, Command: []string{"boof-runner", "exec-task", "--fetch", spec.BundleURL, "--to", bundle},
			VolumeMounts: []corev1.VolumeMount{fetchMount}}}
	}
	c := corev1.Container{
		Name: ContainerName, Image: spec.Image, Command: command, Resources: res, VolumeMounts: mounts,
		Env:   []corev1.EnvVar{{Name: "BOOF_POD_IP", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "status.podIP"}}}},
		Ports: []corev1.ContainerPort{{Name: "control", ContainerPort: wire.ControlPort}},
	}
	if spec.SecretName != "" {
		c.EnvFrom = []corev1.EnvFromSource{{SecretRef: &corev1.SecretEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: spec.SecretName}}}}
	}
	no, zero := false, int32(0)
	ttl := int32(24 * 3600)
	var deadline *int64
	if spec.ActiveDeadlineSeconds > 0 {
		deadline = &spec.ActiveDeadlineSeconds
	}
	grace := spec.GraceSeconds
	job := &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Name: spec.Job, Namespace: spec.Namespace, Labels: labels(spec)},
		Spec: batchv1.JobSpec{
			BackoffLimit: &zero, ActiveDeadlineSeconds: deadline, TTLSecondsAfterFinished: &ttl,
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels(spec)},
				Spec: corev1.PodSpec{
					RestartPolicy: corev1.RestartPolicyNever, AutomountServiceAccountToken: &no,
					ServiceAccountName: spec.ServiceAccount, TerminationGracePeriodSeconds: &grace,
					InitContainers: inits, Containers: []corev1.Container{c}, Volumes: volumes,
				},
			},
		},
	}
	return cm, job, nil
}

// resources reads settings.executor.resources.
func resources(r map[string]map[string]string) (corev1.ResourceRequirements, error) {
	var out corev1.ResourceRequirements
	for section, m := range r {
		list := corev1.ResourceList{}
		for name, q := range m {
			v, err := resource.ParseQuantity(q)
			if err != nil {
				return out, &Error{Class: wire.ErrorConfig, Msg: fmt.Sprintf("executor.resources.%s.%s %q: %v", section, name, q, err)}
			}
			list[corev1.ResourceName(name)] = v
		}
		switch section {
		case "requests":
			out.Requests = list
		case "limits":
			out.Limits = list
		}
	}
	return out, nil
}

// submit creates the run's ConfigMap and Job, and makes the Job own the
// ConfigMap (deleting the Job deletes it). A Job of the same name already
// there (a retry of a submit cut short) is taken as it is.
func (c *Client) submit(ctx context.Context, spec wire.Spec) (*batchv1.Job, error) {
	cm, job, err := Objects(spec)
	if err != nil {
		return nil, err
	}
	if existing, err := c.cs.BatchV1().Jobs(c.ns).Get(ctx, job.Name, metav1.GetOptions{}); err == nil {
		return existing, nil
	} else if !apierrors.IsNotFound(err) {
		return nil, c.classify(err, "reading Job "+job.Name)
	}
	if _, err := c.cs.CoreV1().ConfigMaps(c.ns).Create(ctx, cm, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return nil, c.classify(err, "creating ConfigMap "+cm.Name)
	}
	created, err := c.cs.BatchV1().Jobs(c.ns).Create(ctx, job, metav1.CreateOptions{})
	if err != nil {
		_ = c.cs.CoreV1().ConfigMaps(c.ns).Delete(context.WithoutCancel(ctx), cm.Name, metav1.DeleteOptions{})
		return nil, c.classify(err, "creating Job "+job.Name)
	}
	own := true
	cur, err := c.cs.CoreV1().ConfigMaps(c.ns).Get(ctx, cm.Name, metav1.GetOptions{})
	if err == nil {
		cur.OwnerReferences = []metav1.OwnerReference{{APIVersion: "batch/v1", Kind: "Job", Name: created.Name, UID: created.UID, Controller: &own}}
		_, _ = c.cs.CoreV1().ConfigMaps(c.ns).Update(ctx, cur, metav1.UpdateOptions{})
	}
	return created, nil
}

// findJob returns the task's Job of the given name, found by the task's
// label; nil when there is none.
func (c *Client) findJob(ctx context.Context, spec wire.Spec) (*batchv1.Job, error) {
	list, err := c.cs.BatchV1().Jobs(c.ns).List(ctx, metav1.ListOptions{LabelSelector: wire.LabelTask + "=" + spec.TaskID})
	if err != nil {
		return nil, c.classify(err, "listing the task's Jobs")
	}
	for i := range list.Items {
		if list.Items[i].Name == spec.Job {
			return &list.Items[i], nil
		}
	}
	return nil, nil
}

// deleteJob deletes the Job with foreground propagation: its pod is
// terminated (SIGTERM, its grace) and gone before the Job is.
func (c *Client) deleteJob(ctx context.Context, name string, foreground bool) error {
	p := metav1.DeletePropagationBackground
	if foreground {
		p = metav1.DeletePropagationForeground
	}
	err := c.cs.BatchV1().Jobs(c.ns).Delete(ctx, name, metav1.DeleteOptions{PropagationPolicy: &p})
	if err != nil && !apierrors.IsNotFound(err) {
		return c.classify(err, "deleting Job "+name)
	}
	return nil
}

// inject hands an injected prompt to the pod's control endpoint through
// the API server's pod proxy.
func (c *Client) inject(ctx context.Context, pod string, body []byte) error {
	res := c.cs.CoreV1().RESTClient().Post().Namespace(c.ns).Resource("pods").
		Name(pod+":"+strconv.Itoa(wire.ControlPort)).SubResource("proxy").Suffix("inject").
		SetHeader("Content-Type", "application/json").Body(body).Do(ctx)
	if err := res.Error(); err != nil {
		return c.classify(err, "handing the prompt to pod "+pod)
	}
	return nil
}
