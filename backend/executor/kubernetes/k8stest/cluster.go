//go:build k8s && linux

package k8stest

import (
	"context"
	"crypto/tls"
	_ "embed"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// Ports and addresses of the control plane inside the namespace.
const (
	apiPort    = 6443
	etcdClient = "http://127.0.0.1:2379"
	etcdPeer   = "http://127.0.0.1:2380"
	// Namespace is the namespace the tests run their Jobs in.
	Namespace = "boof"
	// Contexts of Kubeconfig: the admin, a user RBAC grants nothing, and
	// a server nothing listens on.
	ContextAdmin   = "admin"
	ContextLimited = "limited"
	ContextDown    = "down"
	adminToken     = "boof-admin-token"
	limitedToken   = "boof-limited-token"
)

// Cluster is a running test cluster.
type Cluster struct {
	Dir string
	// Kubeconfig holds the contexts ContextAdmin (current), ContextLimited
	// and ContextDown.
	Kubeconfig string
	Server     string
	Config     *rest.Config
	Client     kubernetes.Interface
	// Agent is the node agent of the node the tasks' pods run on.
	Agent *Agent
	// Ready is how long the start took.
	Ready time.Duration

	etcd, api, cm, sched, kwok *proc
}

// Options configure Start.
type Options struct {
	// Images maps an image name to the folder that is its PATH: a pod of
	// that image runs its command from there.
	Images map[string]string
	// FailImages never pull: their pods wait in ImagePullBackOff.
	FailImages []string
}

// Start starts the control plane, kwok with its fake Node, and the node
// agent, and stops them all when t ends. The test binary must run in its
// network namespace (RunInNetns).
func Start(t testing.TB, o Options) *Cluster {
	t.Helper()
	if os.Getenv(netnsEnv) != "1" {
		t.Fatal("k8stest: the test binary must run through k8stest.RunInNetns (TestMain)")
	}
	t0 := time.Now()
	dir, err := os.MkdirTemp("", "boof-k8s-")
	if err != nil {
		t.Fatal(err)
	}
	c := &Cluster{Dir: dir, Server: fmt.Sprintf("https://%s.1:%d", PodNet, apiPort)}
	t.Cleanup(func() {
		c.Stop()
		if !t.Failed() {
			os.RemoveAll(dir)
		} else {
			t.Logf("k8stest: the cluster's logs are kept in %s", dir)
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := c.startControlPlane(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.startNodes(ctx, o); err != nil {
		t.Fatal(err)
	}
	c.Ready = time.Since(t0)
	t.Logf("k8stest: the cluster was ready in %.1f s", c.Ready.Seconds())
	return c
}

func (c *Cluster) path(name string) string { return filepath.Join(c.Dir, name) }

// startControlPlane starts etcd, the API server, the controller manager
// and the scheduler, and writes the kubeconfig.
func (c *Cluster) startControlPlane(ctx context.Context) error {
	names := map[string]string{}
	for _, n := range []string{"etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok"} {
		b, err := bin(n)
		if err != nil {
			return err
		}
		names[n] = b
	}
	if err := writeSAKeys(c.path("sa.key"), c.path("sa.pub")); err != nil {
		return err
	}
	tokens := fmt.Sprintf("%s,admin,admin,\"system:masters\"\n%s,limited,limited\n", adminToken, limitedToken)
	if err := os.WriteFile(c.path("tokens.csv"), []byte(tokens), 0o600); err != nil {
		return err
	}
	if err := c.writeKubeconfig(); err != nil {
		return err
	}
	if err := os.WriteFile(c.path("kwok-stages.yaml"), kwokStages, 0o644); err != nil {
		return err
	}
	c.etcd = &proc{name: "etcd", log: c.path("etcd.log"), args: []string{names["etcd"], "--data-dir", c.path("etcd"),
		"--listen-client-urls", etcdClient, "--listen-peer-urls", etcdPeer}}
	if err := c.etcd.start(); err != nil {
		return err
	}
	c.api = &proc{name: "kube-apiserver", log: c.path("kube-apiserver.log"), args: c.apiArgs(names["kube-apiserver"])}
	if err := c.api.start(); err != nil {
		return err
	}
	if err := c.waitReady(ctx); err != nil {
		return err
	}
	kc := c.Kubeconfig
	c.cm = &proc{name: "kube-controller-manager", log: c.path("kube-controller-manager.log"), args: []string{names["kube-controller-manager"],
		"--kubeconfig", kc, "--leader-elect=false", "--use-service-account-credentials=false",
		"--service-account-private-key-file", c.path("sa.key"), "--bind-address=127.0.0.1", "--secure-port=10257",
		"--controllers=*,-csrsigning,-csrapproving,-csrcleaner,-bootstrapsigner,-tokencleaner", "--concurrent-gc-syncs=5"}}
	c.sched = &proc{name: "kube-scheduler", log: c.path("kube-scheduler.log"), args: []string{names["kube-scheduler"],
		"--kubeconfig", kc, "--leader-elect=false", "--bind-address=127.0.0.1", "--secure-port=10259"}}
	c.kwok = &proc{name: "kwok", log: c.path("kwok.log"), args: []string{names["kwok"], "--kubeconfig", kc,
		"--manage-all-nodes=false", "--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake",
		"--config", c.path("kwok-stages.yaml"), "--server-address=127.0.0.1:10247", "--node-ip=" + PodNet + ".2", "--cidr=10.99.0.0/16"}}
	for _, p := range []*proc{c.cm, c.sched, c.kwok} {
		if err := p.start(); err != nil {
			return err
		}
	}
	return nil
}

func (c *Cluster) apiArgs(b string) []string {
	return []string{b, "--etcd-servers", etcdClient, "--bind-address=0.0.0.0", fmt.Sprintf("--secure-port=%d", apiPort),
		"--advertise-address=" + PodNet + ".1", "--cert-dir", c.path("certs"), "--token-auth-file", c.path("tokens.csv"),
		"--authorization-mode=RBAC", "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file", c.path("sa.pub"), "--service-account-signing-key-file", c.path("sa.key"),
		"--service-cluster-ip-range=10.96.0.0/16", "--enable-priority-and-fairness=false", "--profiling=false",
		"--kubelet-preferred-address-types=InternalIP", "--allow-privileged=true", "--event-ttl=10m"}
}

// waitReady waits for the API server's /readyz.
func (c *Cluster) waitReady(ctx context.Context) error {
	hc := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
	return waitFor(ctx, "the API server", func() bool {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, c.Server+"/readyz", nil)
		req.Header.Set("Authorization", "Bearer "+adminToken)
		resp, err := hc.Do(req)
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}, c.etcd, c.api)
}

// writeKubeconfig writes the three contexts and opens the admin client.
func (c *Cluster) writeKubeconfig() error {
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["test"] = &clientcmdapi.Cluster{Server: c.Server, InsecureSkipTLSVerify: true}
	cfg.Clusters["down"] = &clientcmdapi.Cluster{Server: fmt.Sprintf("https://%s.1:1", PodNet), InsecureSkipTLSVerify: true}
	cfg.AuthInfos["admin"] = &clientcmdapi.AuthInfo{Token: adminToken}
	cfg.AuthInfos["limited"] = &clientcmdapi.AuthInfo{Token: limitedToken}
	cfg.Contexts[ContextAdmin] = &clientcmdapi.Context{Cluster: "test", AuthInfo: "admin", Namespace: Namespace}
	cfg.Contexts[ContextLimited] = &clientcmdapi.Context{Cluster: "test", AuthInfo: "limited", Namespace: Namespace}
	cfg.Contexts[ContextDown] = &clientcmdapi.Context{Cluster: "down", AuthInfo: "admin", Namespace: Namespace}
	cfg.CurrentContext = ContextAdmin
	c.Kubeconfig = c.path("kubeconfig")
	if err := clientcmd.WriteToFile(*cfg, c.Kubeconfig); err != nil {
		return err
	}
	rc, err := clientcmd.NewNonInteractiveClientConfig(*cfg, ContextAdmin, &clientcmd.ConfigOverrides{}, nil).ClientConfig()
	if err != nil {
		return err
	}
	c.Config = rc
	c.Client, err = kubernetes.NewForConfig(rc)
	return err
}

// startNodes creates the namespace, kwok's fake Node and the node agent's
// Node, and waits for the namespace's default service account.
func (c *Cluster) startNodes(ctx context.Context, o Options) error {
	if _, err := c.Client.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: Namespace}}, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("create namespace: %w", err)
	}
	fake := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "kwok-node-0", Annotations: map[string]string{"kwok.x-k8s.io/node": "fake"},
		Labels: map[string]string{"type": "kwok"}},
		Spec: corev1.NodeSpec{Taints: []corev1.Taint{{Key: "kwok.x-k8s.io/node", Value: "fake", Effect: corev1.TaintEffectNoSchedule}}}}
	if _, err := c.Client.CoreV1().Nodes().Create(ctx, fake, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("create kwok's node: %w", err)
	}
	agent, err := StartAgent(ctx, c.Client, AgentOptions{Images: o.Images, FailImages: o.FailImages, Dir: c.path("node")})
	if err != nil {
		return err
	}
	c.Agent = agent
	return waitFor(ctx, "the default service account", func() bool {
		_, err := c.Client.CoreV1().ServiceAccounts(Namespace).Get(ctx, "default", metav1.GetOptions{})
		return err == nil
	}, c.etcd, c.api, c.cm, c.sched, c.kwok)
}

// RestartAPIServer stops the API server, leaves it down for down, and
// starts it again on the same port and etcd.
func (c *Cluster) RestartAPIServer(t testing.TB, down time.Duration) {
	t.Helper()
	c.api.stop(30 * time.Second)
	time.Sleep(down)
	if err := c.api.start(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := c.waitReady(ctx); err != nil {
		t.Fatal(err)
	}
}

// Stop stops the node agent (its pods' processes) and the control plane.
func (c *Cluster) Stop() {
	if c.Agent != nil {
		c.Agent.Stop()
	}
	for _, p := range []*proc{c.kwok, c.sched, c.cm, c.api, c.etcd} {
		if p != nil {
			p.stop(15 * time.Second)
		}
	}
}

// kwokStages are kwok's stages with their jitter at 0.
//
//go:embed kwok-stages.yaml
var kwokStages []byte
