//go:build k8s && linux

package k8stest

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync"
	"time"

	coordv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
)

// NodeName is the node the agent runs.
const NodeName = "boof-node"

// kubeletPort is the agent's kubelet port (logs).
const kubeletPort = 10250

// AgentOptions configure the node agent.
type AgentOptions struct {
	// Images maps an image to the folder that is its PATH.
	Images map[string]string
	// FailImages never pull.
	FailImages []string
	// Dir holds the pods' folders and container logs.
	Dir string
}

// Agent is the node agent: a kubelet whose container runtime runs each
// container as a local process. It keeps its Node ready (status and
// lease), runs the pods bound to it (volumes: ConfigMap, Secret and
// emptyDir folders; the container's command with its mount paths mapped
// to them; env with the downward API's pod IP, Secrets and ConfigMaps),
// reports their status, terminates a deleted pod's processes within its
// grace and then removes the pod, and serves the containers' logs to the
// API server. Each pod gets its own address of PodNet.
type Agent struct {
	cs     kubernetes.Interface
	o      AgentOptions
	ip     string
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	srv    *http.Server

	mu     sync.Mutex
	pods   map[types.UID]*podRun
	nextIP int
}

// StartAgent registers the Node and starts the agent.
func StartAgent(ctx context.Context, cs kubernetes.Interface, o AgentOptions) (*Agent, error) {
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return nil, err
	}
	a := &Agent{cs: cs, o: o, ip: PodNet + ".1", pods: map[types.UID]*podRun{}, nextIP: 10}
	a.ctx, a.cancel = context.WithCancel(context.Background())
	cert, err := selfSigned(net.ParseIP(a.ip))
	if err != nil {
		return nil, err
	}
	ln, err := tls.Listen("tcp", net.JoinHostPort(a.ip, strconv.Itoa(kubeletPort)), &tls.Config{Certificates: []tls.Certificate{cert}})
	if err != nil {
		return nil, fmt.Errorf("node agent: %w", err)
	}
	a.srv = &http.Server{Handler: http.HandlerFunc(a.serveLogs), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = a.srv.Serve(ln) }()
	if err := a.register(ctx); err != nil {
		a.Stop()
		return nil, err
	}
	a.wg.Add(2)
	go a.heartbeat()
	go a.syncPods()
	return a, nil
}

// register creates the Node and reports it ready.
func (a *Agent) register(ctx context.Context) error {
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: NodeName, Labels: map[string]string{"kubernetes.io/hostname": NodeName, "type": "boof-agent"}}}
	if _, err := a.cs.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("register the node: %w", err)
	}
	return a.nodeStatus(ctx)
}

// nodeStatus writes the Node's status: ready, its address and kubelet
// port, its capacity.
func (a *Agent) nodeStatus(ctx context.Context) error {
	node, err := a.cs.CoreV1().Nodes().Get(ctx, NodeName, metav1.GetOptions{})
	if err != nil {
		return err
	}
	now := metav1.Now()
	capacity := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("16"), corev1.ResourceMemory: resource.MustParse("64Gi"),
		corev1.ResourcePods: resource.MustParse("110")}
	node.Status = corev1.NodeStatus{
		Capacity: capacity, Allocatable: capacity, Phase: corev1.NodeRunning,
		Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue, Reason: "KubeletReady",
			Message: "boof-runner's test node agent is ready", LastHeartbeatTime: now, LastTransitionTime: now}},
		Addresses:       []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: a.ip}, {Type: corev1.NodeHostName, Address: NodeName}},
		DaemonEndpoints: corev1.NodeDaemonEndpoints{KubeletEndpoint: corev1.DaemonEndpoint{Port: kubeletPort}},
		NodeInfo:        corev1.NodeSystemInfo{KubeletVersion: "v1.34.4", OperatingSystem: "linux", Architecture: "amd64", ContainerRuntimeVersion: "boof-agent://1"},
	}
	_, err = a.cs.CoreV1().Nodes().UpdateStatus(ctx, node, metav1.UpdateOptions{})
	return err
}

// heartbeat renews the node's lease and status until the agent stops;
// failures (the API server restarting) are tried again at the next beat.
func (a *Agent) heartbeat() {
	defer a.wg.Done()
	tick := time.NewTicker(5 * time.Second)
	defer tick.Stop()
	for {
		ctx, cancel := context.WithTimeout(a.ctx, 5*time.Second)
		a.renewLease(ctx)
		_ = a.nodeStatus(ctx)
		cancel()
		select {
		case <-a.ctx.Done():
			return
		case <-tick.C:
		}
	}
}

func (a *Agent) renewLease(ctx context.Context) {
	leases := a.cs.CoordinationV1().Leases(corev1.NamespaceNodeLease)
	now := metav1.NewMicroTime(time.Now())
	secs := int32(40)
	l, err := leases.Get(ctx, NodeName, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		holder := NodeName
		_, _ = leases.Create(ctx, &coordv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: NodeName},
			Spec: coordv1.LeaseSpec{HolderIdentity: &holder, LeaseDurationSeconds: &secs, RenewTime: &now}}, metav1.CreateOptions{})
		return
	}
	if err != nil {
		return
	}
	l.Spec.RenewTime = &now
	_, _ = leases.Update(ctx, l, metav1.UpdateOptions{})
}

// syncPods looks at the pods bound to the node twice a second: a new one
// starts, a deleted one is terminated, one gone from the API is killed.
func (a *Agent) syncPods() {
	defer a.wg.Done()
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		ctx, cancel := context.WithTimeout(a.ctx, 10*time.Second)
		list, err := a.cs.CoreV1().Pods("").List(ctx, metav1.ListOptions{FieldSelector: "spec.nodeName=" + NodeName})
		cancel()
		if err == nil {
			a.sync(list.Items)
		}
		select {
		case <-a.ctx.Done():
			return
		case <-tick.C:
		}
	}
}

func (a *Agent) sync(pods []corev1.Pod) {
	a.mu.Lock()
	defer a.mu.Unlock()
	seen := map[types.UID]bool{}
	for i := range pods {
		pod := &pods[i]
		seen[pod.UID] = true
		pr, known := a.pods[pod.UID]
		switch {
		case !known && pod.DeletionTimestamp == nil && pod.Status.Phase != corev1.PodSucceeded && pod.Status.Phase != corev1.PodFailed:
			pr = a.newPod(pod)
			a.pods[pod.UID] = pr
			a.wg.Add(1)
			go func() {
				defer a.wg.Done()
				pr.run(pod)
			}()
		case !known && pod.DeletionTimestamp != nil:
			a.finalize(pod) // deleted before it ran here
		case known && pod.DeletionTimestamp != nil && pr.finished():
			a.finalize(pod) // its containers ended before the deletion
		case known && pod.DeletionTimestamp != nil:
			grace := int64(30)
			if pod.DeletionGracePeriodSeconds != nil {
				grace = *pod.DeletionGracePeriodSeconds
			}
			pr.terminate(time.Duration(grace) * time.Second)
		}
	}
	for uid, pr := range a.pods {
		if !seen[uid] {
			pr.kill()
			if pr.finished() {
				delete(a.pods, uid)
			}
		}
	}
}

// finalize removes a deleted pod whose containers are gone, as a kubelet
// does (a delete with no grace).
func (a *Agent) finalize(pod *corev1.Pod) {
	zero := int64(0)
	uid := pod.UID
	ctx, cancel := context.WithTimeout(a.ctx, 10*time.Second)
	defer cancel()
	err := a.cs.CoreV1().Pods(pod.Namespace).Delete(ctx, pod.Name, metav1.DeleteOptions{GracePeriodSeconds: &zero,
		Preconditions: &metav1.Preconditions{UID: &uid}})
	if err != nil && !apierrors.IsNotFound(err) && !errors.Is(err, context.Canceled) {
		return // tried again at the next look
	}
}

// Evict kills the pod's containers at once and marks it Failed (Evicted),
// as a kubelet under memory pressure does.
func (a *Agent) Evict(name string) error {
	a.mu.Lock()
	var pr *podRun
	for _, p := range a.pods {
		if p.name == name {
			pr = p
		}
	}
	a.mu.Unlock()
	if pr == nil {
		return fmt.Errorf("no pod %s runs on the node", name)
	}
	pr.evict()
	return nil
}

// Pids returns the processes of the pods' containers still running.
func (a *Agent) Pids() []int {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []int
	for _, pr := range a.pods {
		if pid := pr.pid(); pid > 0 {
			out = append(out, pid)
		}
	}
	return out
}

// Stop kills every pod's processes and stops the agent.
func (a *Agent) Stop() {
	a.cancel()
	a.mu.Lock()
	for _, pr := range a.pods {
		pr.kill()
	}
	a.mu.Unlock()
	a.wg.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = a.srv.Shutdown(ctx)
}

// allocIP gives a pod its address.
func (a *Agent) allocIP() string {
	ip := fmt.Sprintf("%s.%d", PodNet, a.nextIP)
	a.nextIP++
	if a.nextIP > 250 {
		a.nextIP = 10
	}
	return ip
}
