//go:build k8s && linux

// Package k8stest is the test cluster of backend/executor/kubernetes: a
// real control plane on loopback (etcd, kube-apiserver,
// kube-controller-manager, kube-scheduler; the binaries of
// scripts/k8s-testbin.sh), kwok with a fake Node and its stages, and a
// node agent that runs each pod bound to its node as a local process,
// reports its status through the API and serves its log and its port as a
// kubelet and a pod network would: only the container runtime is
// simulated. It runs in a network namespace of its own (RunInNetns), so
// pod IPs are real addresses the API server's pod proxy reaches and no
// port meets another test's.
package k8stest

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"
)

// netnsEnv marks the test binary re-run inside its network namespace.
const netnsEnv = "BOOF_K8S_NETNS"

// PodNet is the /24 whose addresses are local in the namespace: the API
// server and the node at .1, pods from .10.
const PodNet = "198.18.0"

// RunInNetns runs m inside a new network namespace (a user namespace too
// when not root) whose loopback holds PodNet.0/24, and returns the exit
// code: the test binary runs itself again there.
func RunInNetns(m *testing.M) int {
	if os.Getenv(netnsEnv) == "1" {
		if err := setupLoopback(); err != nil {
			fmt.Fprintln(os.Stderr, "k8stest: network namespace:", err)
			return 1
		}
		return m.Run()
	}
	cmd := exec.Command("/proc/self/exe", os.Args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), netnsEnv+"=1")
	attr := &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWNET, Pdeathsig: syscall.SIGKILL}
	if os.Geteuid() != 0 {
		attr.Cloneflags |= syscall.CLONE_NEWUSER
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Geteuid(), Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getegid(), Size: 1}}
	}
	cmd.SysProcAttr = attr
	if err := cmd.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		fmt.Fprintln(os.Stderr, "k8stest: cannot make a network namespace:", err)
		return 1
	}
	return 0
}

// setupLoopback brings lo up with PodNet.1 and makes all of PodNet local.
func setupLoopback() error {
	for _, args := range [][]string{
		{"link", "set", "lo", "up"},
		{"addr", "add", PodNet + ".1/32", "dev", "lo"},
		{"route", "replace", "local", PodNet + ".0/24", "dev", "lo"},
	} {
		if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
			return fmt.Errorf("ip %v: %v: %s", args, err, out)
		}
	}
	return nil
}

// InNetns reports whether this process is the test binary run again in
// its network namespace.
func InNetns() bool { return os.Getenv(netnsEnv) == "1" }
