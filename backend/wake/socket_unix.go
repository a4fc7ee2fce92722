//go:build unix

package wake

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"strings"
	"sync"
	"time"
)

// addr is the socket address of path: the path itself, or for a path
// too long to bind, longName's (an abstract name on Linux, a file in the
// temporary folder elsewhere).
func addr(path string) *net.UnixAddr {
	if len(path) <= maxPath {
		return &net.UnixAddr{Name: path, Net: "unixgram"}
	}
	return &net.UnixAddr{Name: longName(path), Net: "unixgram"}
}

// Listener is the bound wake-up socket of a data root.
type Listener struct {
	path string // the socket file (or abstract name) bound
	conn *net.UnixConn
	// bound is the socket file this listener made (nil for an abstract
	// name); Close removes it only while it is still that file.
	bound fs.FileInfo
	done  chan struct{}
	once  sync.Once
}

// Listen binds the wake-up socket at path and calls onPoke for every poke
// until Close. The caller must hold the data root's runner lock: a socket
// file already at path is then a stale one (a runner that crashed) and is
// replaced; anything else at path (a regular file, a folder) is refused
// and left alone.
func Listen(path string, onPoke func()) (*Listener, error) {
	a := addr(path)
	sock := a.Name // the socket file, unless an abstract name
	file := !strings.HasPrefix(sock, "@")
	if file {
		fi, err := os.Lstat(sock)
		switch {
		case err == nil && fi.Mode()&fs.ModeSocket == 0:
			return nil, fmt.Errorf("wake-up socket: %s exists and is not a socket", sock)
		case err == nil:
			if err := os.Remove(sock); err != nil {
				return nil, fmt.Errorf("remove stale wake-up socket: %w", err)
			}
		case !errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("wake-up socket: %w", err)
		}
	}
	conn, err := net.ListenUnixgram("unixgram", a)
	if err != nil {
		return nil, fmt.Errorf("bind wake-up socket: %w", err)
	}
	l := &Listener{path: sock, conn: conn, done: make(chan struct{})}
	if file {
		l.bound, _ = os.Lstat(sock)
	}
	go l.serve(onPoke)
	return l, nil
}

func (l *Listener) serve(onPoke func()) {
	defer close(l.done)
	buf := make([]byte, 64)
	for {
		if _, _, err := l.conn.ReadFromUnix(buf); err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			continue // a bad datagram is only a missed wake-up: the poll catches it
		}
		onPoke()
	}
}

// Close stops listening and removes the socket file; after it returns
// onPoke is not called again.
func (l *Listener) Close() error {
	var err error
	l.once.Do(func() {
		err = l.conn.Close()
		<-l.done
		if l.bound != nil {
			if fi, lerr := os.Lstat(l.path); lerr == nil && os.SameFile(fi, l.bound) {
				_ = os.Remove(l.path)
			}
		}
	})
	return err
}

// pokeTimeout bounds a poke: a runner that does not read its socket must
// not hold up the command that rang it.
const pokeTimeout = 100 * time.Millisecond

// Poke rings the wake-up socket at path once. It returns ErrNoListener
// when no runner listens (missing or stale socket); any error only means
// the runner sees the change at its next poll.
func Poke(path string) error {
	conn, err := net.DialUnix("unixgram", nil, addr(path))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || isRefused(err) {
			return ErrNoListener
		}
		return fmt.Errorf("poke the runner: %w", err)
	}
	defer conn.Close()
	_ = conn.SetWriteDeadline(time.Now().Add(pokeTimeout))
	if _, err := conn.Write([]byte{1}); err != nil {
		if isRefused(err) {
			return ErrNoListener
		}
		return fmt.Errorf("poke the runner: %w", err)
	}
	return nil
}
