//go:build linux

package proc

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The orphans this process adopts as a subreaper — alive, and a zombie
// once one exits — are what scanChildren lists; not their children.
func TestScanChildrenListsAdoptedOrphans(t *testing.T) {
	var was int32
	if err := unix.Prctl(unix.PR_GET_CHILD_SUBREAPER, uintptr(unsafe.Pointer(&was)), 0, 0, 0); err != nil {
		t.Fatal(err)
	}
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, uintptr(was), 0, 0, 0) })
	cmd := exec.Command("sh", "-c", `sh -c 'sleep 30 & wait' & echo $!; sleep 0.3 & echo $!`)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	var pids []int
	for len(pids) < 2 && sc.Scan() {
		p, err := strconv.Atoi(strings.TrimSpace(sc.Text()))
		if err != nil {
			t.Fatal(err)
		}
		pids = append(pids, p)
	}
	if err := cmd.Wait(); err != nil || len(pids) != 2 {
		t.Fatalf("sh: %v, pids %v", err, pids)
	}
	live, dying := pids[0], pids[1]
	grandchild := 0
	for i := 0; grandchild == 0; i++ {
		if tab, err := scanProcs(); err == nil {
			for _, j := range tab.children[live] {
				grandchild = tab.all[j].pid
			}
		}
		if i == 400 {
			t.Fatalf("orphan %d started no child", live)
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Cleanup(func() {
		_ = unix.Kill(grandchild, unix.SIGKILL) // its parent, still alive, waits for it
		_ = unix.Kill(live, unix.SIGKILL)
		var ws unix.WaitStatus
		_, _ = unix.Wait4(live, &ws, 0, nil)
		_, _ = unix.Wait4(dying, &ws, 0, nil)
	})
	self := os.Getpid()
	var buf [512]byte
	for i := 0; ; i++ {
		if p, ok := readStatBuf(dying, buf[:]); ok && p.zombie && p.ppid == self {
			break
		}
		if i == 400 {
			p, ok := readStatBuf(dying, buf[:])
			t.Fatalf("orphan %d did not become our zombie: %+v %v (self %d)", dying, p, ok, self)
		}
		time.Sleep(5 * time.Millisecond)
	}
	tab, ok := scanChildren(self)
	if !ok {
		t.Skip("the kernel has no /proc/<pid>/task/<tid>/children (CONFIG_PROC_CHILDREN)")
	}
	found := map[int]procInfo{}
	for _, i := range tab.children[self] {
		found[tab.all[i].pid] = tab.all[i]
	}
	if _, ok := found[live]; !ok {
		t.Errorf("adopted orphan %d missing from %v", live, found)
	}
	if p, ok := found[dying]; !ok || !p.zombie {
		t.Errorf("adopted zombie %d missing or not a zombie: %+v", dying, p)
	}
	if _, ok := found[grandchild]; ok {
		t.Errorf("the orphan's own child %d listed as ours", grandchild)
	}
}
