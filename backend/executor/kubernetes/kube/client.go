// Package kube is the cluster side of a task's run in Kubernetes, over
// client-go: it creates the task's ConfigMap and Job, follows the Job's pod
// (its phase and its log, line by line), deletes the Job for a stop, and
// hands injected prompts to the pod's control endpoint through the API
// server's pod proxy. It runs in its own process (`boof-runner-kube
// exec-remote`, ExecRemote), so client-go never links into the desktop.
package kube

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"sort"
	"strings"
	"syscall"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/boof-runner/boof-runner/backend/executor/wire"
)

// Client is a connection to one namespace of a cluster.
type Client struct {
	cs   kubernetes.Interface
	ns   string
	host string
}

// Error is a problem with the cluster, of one of the wire.Error* classes.
type Error struct {
	Class string
	Msg   string
}

func (e *Error) Error() string { return e.Msg }

// Connect reads the kubeconfig (kubeconfig, else $KUBECONFIG, else
// ~/.kube/config) at context (else its current one) and returns a client of
// namespace. A kubeconfig that cannot be read or has no such context is an
// *Error of class wire.ErrorConfig.
func Connect(kubeconfig, contextName, namespace string) (*Client, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	if kubeconfig != "" {
		rules.ExplicitPath = kubeconfig
	}
	raw, err := rules.Load()
	if err != nil {
		return nil, &Error{Class: wire.ErrorConfig, Msg: "the kubeconfig cannot be read: " + oneLine(err.Error())}
	}
	where := strings.Join(rules.GetLoadingPrecedence(), ":")
	if kubeconfig != "" {
		where = kubeconfig
	}
	if contextName != "" {
		if _, ok := raw.Contexts[contextName]; !ok {
			return nil, &Error{Class: wire.ErrorConfig, Msg: fmt.Sprintf("the kubeconfig %s has no context %q (it has %s)", where, contextName, contextNames(raw.Contexts))}
		}
	} else if raw.CurrentContext == "" {
		return nil, &Error{Class: wire.ErrorConfig, Msg: fmt.Sprintf("the kubeconfig %s names no current context: set executor.context", where)}
	}
	cc := clientcmd.NewNonInteractiveClientConfig(*raw, contextName, &clientcmd.ConfigOverrides{}, rules)
	cfg, err := cc.ClientConfig()
	if err != nil {
		return nil, &Error{Class: wire.ErrorConfig, Msg: "the kubeconfig's context cannot be used: " + oneLine(err.Error())}
	}
	cfg.UserAgent = "boof-runner"
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, &Error{Class: wire.ErrorConfig, Msg: oneLine(err.Error())}
	}
	return &Client{cs: cs, ns: namespace, host: cfg.Host}, nil
}

// NewForConfig returns a client of namespace over cfg (tests).
func NewForConfig(cfg *rest.Config, namespace string) (*Client, error) {
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	return &Client{cs: cs, ns: namespace, host: cfg.Host}, nil
}

func contextNames[V any](m map[string]V) string {
	if len(m) == 0 {
		return "none"
	}
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, fmt.Sprintf("%q", n))
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// classify turns an error of the API into an *Error: the server cannot be
// reached, refuses (RBAC, credentials), or another problem; what names the
// request in the message.
func (c *Client) classify(err error, what string) *Error {
	var ke *Error
	if errors.As(err, &ke) {
		return ke
	}
	switch {
	case apierrors.IsForbidden(err):
		return &Error{Class: wire.ErrorForbidden, Msg: fmt.Sprintf("%s in namespace %s was forbidden (RBAC): %s", what, c.ns, apiMessage(err))}
	case apierrors.IsUnauthorized(err):
		return &Error{Class: wire.ErrorForbidden, Msg: fmt.Sprintf("%s: the API server at %s did not accept the kubeconfig's credentials", what, c.host)}
	case unreachable(err):
		return &Error{Class: wire.ErrorUnreachable, Msg: fmt.Sprintf("the API server at %s cannot be reached (%s)", c.host, oneLine(rootCause(err)))}
	}
	return &Error{Class: wire.ErrorOther, Msg: fmt.Sprintf("%s: %s", what, oneLine(err.Error()))}
}

// unreachable reports whether err is a connection that could not be made
// or was cut.
func unreachable(err error) bool {
	var ne net.Error
	var ue *url.Error
	var oe *net.OpError
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EHOSTUNREACH) ||
		errors.Is(err, syscall.ENETUNREACH) || errors.As(err, &oe) || (errors.As(err, &ne) && ne.Timeout()) ||
		(errors.As(err, &ue) && !apierrors.IsForbidden(err)) || errors.Is(err, os.ErrDeadlineExceeded)
}

func rootCause(err error) string {
	for {
		u := errors.Unwrap(err)
		if u == nil {
			return err.Error()
		}
		err = u
	}
}

func apiMessage(err error) string {
	var se apierrors.APIStatus
	if errors.As(err, &se) {
		return oneLine(se.Status().Message)
	}
	return oneLine(err.Error())
}

func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// retryable reports whether a request may work when tried again (the
// server restarting, a connection cut).
func retryable(err error) bool {
	return unreachable(err) || apierrors.IsServerTimeout(err) || apierrors.IsTimeout(err) ||
		apierrors.IsTooManyRequests(err) || apierrors.IsServiceUnavailable(err) || apierrors.IsInternalError(err) ||
		errors.Is(err, context.DeadlineExceeded)
}
