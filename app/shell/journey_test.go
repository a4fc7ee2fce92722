//go:build linux && journey

package shell

// The desktop journeys through the real app binary (make test-desktop):
// under Xvfb, on a private session bus, driven the way a desktop panel
// drives it. A StatusNotifierWatcher (the tray host) and a notification
// server are the edges we do not own; everything else is the app as
// shipped. What the window shows is read through the app itself: SIGUSR2
// makes the front end write its visible text to ui-snapshot.txt in the
// data root. BOOF_APP_BIN names the binary (built with the desktop tag).

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// journeyWait bounds each wait of these tests: the machine running them
// may be loaded, and a WebKit window starts slowly there. It only guards
// against a hang.
const journeyWait = 90 * time.Second

func appBinary(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("BOOF_APP_BIN")
	if bin == "" {
		t.Fatal("BOOF_APP_BIN must name the desktop app binary (make test-desktop sets it)")
	}
	abs, err := filepath.Abs(bin)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// startXvfb starts a private X server and points DISPLAY at it.
func startXvfb(t *testing.T) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1280x800x24", "-nolisten", "tcp")
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		t.Fatalf("Xvfb (apt package xvfb): %v", err)
	}
	w.Close()
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(r).ReadString('\n')
	r.Close()
	if err != nil {
		t.Fatalf("Xvfb printed no display: %v", err)
	}
	display := ":" + strings.TrimSpace(line)
	t.Setenv("DISPLAY", display)
	return display
}

// waitLong polls cond until it holds, for at most journeyWait.
func waitLong(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(journeyWait)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// desktopApp is one run of the real app binary on a data root.
type desktopApp struct {
	t      *testing.T
	bin    string
	root   string
	env    []string
	cmd    *exec.Cmd
	logBuf *syncBuffer
	done   chan error
	snap   int // the last snapshot's seq
}

// newDesktopApp prepares a data root whose roles all use the mock tool
// against a fresh git repository, and the environment of a fresh user.
func newDesktopApp(t *testing.T) *desktopApp {
	t.Helper()
	tmp := t.TempDir()
	a := &desktopApp{t: t, bin: appBinary(t), root: filepath.Join(tmp, "data")}
	home, run := filepath.Join(tmp, "home"), filepath.Join(tmp, "run")
	os.MkdirAll(home, 0o700)
	os.MkdirAll(run, 0o700)
	a.env = append(os.Environ(), "HOME="+home, "XDG_RUNTIME_DIR="+run, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_DATA_HOME="+filepath.Join(home, ".local", "share"), "NO_AT_BRIDGE=1", "BOOF_RUNNER_HOME=")
	repo := filepath.Join(tmp, "repo")
	os.MkdirAll(repo, 0o755)
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "init"}} {
		if out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	a.cli("settings", "set", "workingDirectory", repo)
	for _, role := range []string{"planner", "refinement", "developer", "reviewer"} {
		a.cli("settings", "set", "roles."+role, `{"tool":"mock"}`)
	}
	a.cli("settings", "set", "runner.concurrency", "2")
	a.cli("settings", "set", "stop.graceMs", "1000")
	a.cli("settings", "set", "ui.setupDismissed", "true") // no agent CLI here: the first-launch screen is its own flow
	return a
}

// cli runs a headless command on the data root and returns its output.
func (a *desktopApp) cli(args ...string) string {
	a.t.Helper()
	cmd := exec.Command(a.bin, append(args, "--data-dir", a.root)...)
	cmd.Env = a.env
	out, err := cmd.Output()
	if err != nil {
		a.t.Fatalf("boof-runner %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func (a *desktopApp) status(id string) string {
	a.t.Helper()
	var v struct {
		Status string `json:"status"`
	}
	if err := json.Unmarshal([]byte(a.cli("show", id, "--json")), &v); err != nil {
		a.t.Fatal(err)
	}
	return v.Status
}

func (a *desktopApp) waitStatus(id, want string) {
	a.t.Helper()
	waitLong(a.t, "task "+id+" "+want, func() bool { return a.status(id) == want })
}

// start launches the app with args; it is stopped (SIGTERM) when the test
// ends if it still runs.
func (a *desktopApp) start(args ...string) {
	a.t.Helper()
	buf := &syncBuffer{}
	a.cmd = exec.Command(a.bin, append([]string{"--data-dir", a.root}, args...)...)
	a.cmd.Env = a.env
	a.cmd.Stdout, a.cmd.Stderr = buf, buf
	if err := a.cmd.Start(); err != nil {
		a.t.Fatal(err)
	}
	a.logBuf = buf
	a.done = make(chan error, 1)
	go func() { a.done <- a.cmd.Wait() }()
	a.t.Cleanup(func() {
		select {
		case <-a.done:
			return
		default:
		}
		a.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-a.done:
		case <-time.After(20 * time.Second):
			a.cmd.Process.Kill()
			<-a.done
		}
		if a.t.Failed() {
			a.t.Logf("app log:\n%s", buf.String())
		}
	})
}

func (a *desktopApp) logText() string { return a.logBuf.String() }

func (a *desktopApp) waitLog(line string) {
	a.t.Helper()
	waitLong(a.t, "the log line "+line, func() bool { return strings.Contains(a.logText(), line) })
}

// exited waits for the app to end and returns its exit code.
func (a *desktopApp) exited() int {
	a.t.Helper()
	select {
	case err := <-a.done:
		a.done <- err // later cleanups see it too
		if err == nil {
			return 0
		}
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		a.t.Fatal(err)
	case <-time.After(journeyWait):
		a.t.Fatal("the app did not exit")
	}
	return -1
}

// snapshot asks the running app (SIGUSR2) for the text its window shows.
func (a *desktopApp) snapshot() string {
	a.t.Helper()
	if err := a.cmd.Process.Signal(syscall.SIGUSR2); err != nil {
		a.t.Fatal(err)
	}
	path := filepath.Join(a.root, "ui-snapshot.txt")
	var text string
	waitLong(a.t, "a UI snapshot", func() bool {
		b, err := os.ReadFile(path)
		if err != nil {
			return false
		}
		head, rest, _ := strings.Cut(string(b), "\n")
		seq, _ := strconv.Atoi(strings.TrimPrefix(head, "seq "))
		if seq <= a.snap {
			return false
		}
		a.snap, text = seq, rest
		return true
	})
	if strings.HasPrefix(text, "error: ") {
		a.t.Fatalf("snapshot failed: %s", text)
	}
	return text
}

// waitShows waits until the window shows every one of texts.
func (a *desktopApp) waitShows(what string, texts ...string) string {
	a.t.Helper()
	var last string
	deadline := time.Now().Add(journeyWait)
	for {
		last = a.snapshot()
		missing := ""
		for _, s := range texts {
			if !strings.Contains(last, s) {
				missing = s
				break
			}
		}
		if missing == "" {
			return last
		}
		if time.Now().After(deadline) {
			a.t.Fatalf("%s: the window never showed %q; it shows:\n%s", what, missing, last)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// shot saves a screenshot of the screen as BOOF_SCREENS/journey-NAME.png
// when BOOF_SCREENS is set (make test-desktop sets it), for people to look at.
func shot(t *testing.T, name string) {
	t.Helper()
	dir := os.Getenv("BOOF_SCREENS")
	if dir == "" {
		return
	}
	os.MkdirAll(dir, 0o755)
	// The DOM (what the snapshot reads) changes before WebKit paints it.
	time.Sleep(time.Second)
	if out, err := exec.Command("import", "-window", "root", filepath.Join(dir, "journey-"+name+".png")).CombinedOutput(); err != nil {
		t.Logf("screenshot %s: %v %s", name, err, out)
	}
}

// windowVisible reports whether a mapped window named Boof Runner exists.
func windowVisible() bool {
	out, _ := exec.Command("xdotool", "search", "--onlyvisible", "--name", "^Boof Runner$").Output()
	return strings.TrimSpace(string(out)) != ""
}

// panel is the tray host's side of the app's StatusNotifierItem.
type panel struct {
	t      *testing.T
	bus    *dbus.Conn
	sender string
	item   dbus.ObjectPath
	menu   dbus.ObjectPath
}

func findTray(t *testing.T, w *watcher, bus *dbus.Conn) *panel {
	t.Helper()
	p := &panel{t: t, bus: bus}
	waitLong(t, "the app's StatusNotifierItem", func() bool {
		s, path, ok := w.registered()
		p.sender, p.item = s, dbus.ObjectPath(path)
		return ok
	})
	p.menu = menuPath(t, bus, p.sender, p.item)
	return p
}

func (p *panel) entries() []menuEntry { return readMenu(p.t, p.bus, p.sender, p.menu) }

// entry waits for a top-level item with the label.
func (p *panel) entry(label string) menuEntry {
	p.t.Helper()
	var e menuEntry
	waitLong(p.t, "tray item "+label, func() bool {
		for _, x := range p.entries() {
			if x.Label == label {
				e = x
				return true
			}
		}
		return false
	})
	return e
}

func (p *panel) click(label string) {
	p.t.Helper()
	e := p.entry(label)
	if !e.Enabled {
		p.t.Fatalf("tray item %q is disabled", label)
	}
	clickMenu(p.t, p.bus, p.sender, p.menu, e.ID)
}

func (p *panel) activate() {
	p.t.Helper()
	if c := p.bus.Object(p.sender, p.item).Call("org.kde.StatusNotifierItem.Activate", 0, int32(0), int32(0)); c.Err != nil {
		p.t.Fatalf("Activate: %v", c.Err)
	}
}

// TestDesktopJourney: started at login (hidden, in the tray), every tray
// item, Stop with two running tasks, notification clicks, second launches
// with and without options, Quit.
func TestDesktopJourney(t *testing.T) {
	startXvfb(t)
	addr := startSessionBus(t)
	_, w := startWatcher(t, addr)
	notes := startNotifyServer(t, addr, "body", "actions")
	bus := connectBus(t, addr)
	a := newDesktopApp(t)

	// A crashed app's leftovers and a corrupt lock never stop the start.
	os.WriteFile(filepath.Join(a.root, "instance.lock"), []byte("garbage\x00\xff"), 0o600)
	os.WriteFile(filepath.Join(a.root, "instance.sock"), []byte("not a socket"), 0o600)
	// Start at login is on: the app writes its autostart entry and, started
	// by it, stays hidden in the tray.
	a.cli("settings", "set", "ui.startAtLogin", "true")
	a.start("--hidden")
	a.waitLog("window: dom ready")
	entry := filepath.Join(a.env0("XDG_CONFIG_HOME"), "autostart", "boof-runner.desktop")
	waitLong(t, "the autostart entry", func() bool { _, err := os.Stat(entry); return err == nil })
	if b, _ := os.ReadFile(entry); !strings.Contains(string(b), "Exec="+a.bin+" --hidden --data-dir "+a.root+"\n") {
		t.Fatalf("autostart entry:\n%s", b)
	}
	if out, err := exec.Command("desktop-file-validate", entry).CombinedOutput(); err != nil {
		t.Fatalf("desktop-file-validate %s: %v\n%s", entry, err, out)
	}
	tray := findTray(t, w, bus)
	tray.entry("Show window")
	if windowVisible() {
		t.Fatal("started with --hidden, the window is shown")
	}

	t.Run("left click shows and hides the window", func(t *testing.T) {
		tray.activate()
		waitLong(t, "the window shown", windowVisible)
		a.waitLog("window: first paint")
		a.waitShows("the first screen", "New task", "[focus Prompt (required)]")
		tray.entry("Hide window")
		tray.activate()
		waitLong(t, "the window hidden", func() bool { return !windowVisible() })
		tray.click("Show window")
		waitLong(t, "the window shown", windowVisible)
		tray.click("Hide window")
		waitLong(t, "the window hidden", func() bool { return !windowVisible() })
		tray.click("Show window")
		waitLong(t, "the window shown", windowVisible)
	})

	t.Run("review queue with nothing waiting", func(t *testing.T) {
		tray.click("Review queue (0 waiting)")
		a.waitShows("the empty review queue", "Nothing is waiting for review.")
		shot(t, "review-empty")
	})

	t.Run("merge queue opens its screen", func(t *testing.T) {
		tray.click("Merge queue (0)")
		a.waitShows("the empty merge queue", "Merge queue", "The merge queue is empty.")
		shot(t, "merge-queue-empty")
	})

	t.Run("new task opens the form with the prompt focused", func(t *testing.T) {
		tray.click("New task…")
		a.waitShows("the New task form", "Add task", "[focus Prompt (required)]")
	})

	t.Run("pause and resume the runner", func(t *testing.T) {
		tray.click("Pause runner")
		tray.entry("Resume runner")
		a.waitShows("the paused runner", "Paused", "Resume")
		tray.click("Resume runner")
		tray.entry("Pause runner")
		a.waitShows("the running runner", "Idle", "Pause")
	})

	var first, second string
	t.Run("stop with two running tasks", func(t *testing.T) {
		first = a.cli("add", "--title", "Write the docs", "Write the docs [[mock-await developer=9]]")
		second = a.cli("add", "--title", "Fix the flaky test", "Fix it [[mock-await developer=9]]")
		a.waitStatus(first, "ongoing")
		a.waitStatus(second, "ongoing")
		menu := tray.entry("Stop a running task (2 running)")
		if slices.ContainsFunc(tray.entries(), func(e menuEntry) bool { return strings.HasPrefix(e.Label, "Stop “") }) {
			t.Fatal("a single Stop item is shown beside the submenu")
		}
		subs := labels(menu.Sub)
		slices.Sort(subs)
		if !slices.Equal(subs, []string{"Stop “Fix the flaky test”", "Stop “Write the docs”"}) {
			t.Fatalf("Stop submenu %q", subs)
		}
		for _, e := range menu.Sub {
			if e.Label == "Stop “Fix the flaky test”" {
				clickMenu(t, bus, tray.sender, tray.menu, e.ID)
			}
		}
		a.waitStatus(second, "stopped")
		if s := a.status(first); s != "ongoing" {
			t.Fatalf("the other task is %s", s)
		}
		waitLong(t, "the stop notification", func() bool { return slices.Contains(notes.summaries(), "Stopped: Fix the flaky test") })
		tray.click("Stop “Write the docs”")
		a.waitStatus(first, "stopped")
		waitLong(t, "the second stop notification", func() bool { return slices.Contains(notes.summaries(), "Stopped: Write the docs") })
		for _, c := range notes.recorded() {
			if strings.HasPrefix(c.Summary, "Stopped: ") && !strings.Contains(c.Body, "work is kept") {
				t.Fatalf("stop notification %q does not say the work was kept: %q", c.Summary, c.Body)
			}
		}
		tray.entry("Stop running task")
		a.waitShows("the stopped tasks", "Stopped", "Write the docs", "Fix the flaky test")
		shot(t, "stopped")
	})

	var finished string
	t.Run("review queue opens the oldest finished task", func(t *testing.T) {
		finished = a.cli("add", "--title", "Add a greeting", "Add a greeting file")
		a.waitStatus(finished, "done")
		tray.click("Review queue (1 waiting)")
		a.waitShows("the task's review", "Accept…", "Reject…", "Changes")
		shot(t, "review-queue")
	})

	t.Run("notification clicks open their task", func(t *testing.T) {
		asking := a.cli("add", "--title", "Pick a database", "Pick one [[mock-questions planner=1]]")
		a.waitStatus(asking, "actions")
		var askID, doneID uint32
		waitLong(t, "the needs-an-answer notification", func() bool {
			for _, c := range notes.recorded() {
				switch c.Summary {
				case "Task needs an answer: Pick a database":
					askID = c.ID
				case "Task finished: Add a greeting":
					doneID = c.ID
				}
			}
			return askID != 0 && doneID != 0
		})
		tray.click("New task…") // away from both screens
		a.waitShows("the New task form", "[focus Prompt (required)]")
		notes.click(t, askID)
		a.waitShows("the answer form", "Needs your answer", "Pick a database", "[focus Your answer]")
		shot(t, "notification-answer")
		notes.click(t, doneID)
		a.waitShows("the finished task's review", "Accept…", "Reject…")
	})

	t.Run("a second launch hands over and exits 0", func(t *testing.T) {
		second := func(args ...string) {
			t.Helper()
			cmd := exec.Command(a.bin, append([]string{"--data-dir", a.root}, args...)...)
			cmd.Env = a.env
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("second launch %v: %v\n%s", args, err, out)
			}
		}
		second("--review", "01NOSUCHTASK0000")
		a.waitShows("the unknown review id", `Task "01NOSUCHTASK0000" does not exist.`)
		shot(t, "review-unknown-id")
		second("--review", finished)
		a.waitShows("the review of the named task", "Accept…")
		second("--new-task")
		a.waitShows("the New task form", "Add task", "[focus Prompt (required)]")
		tray.click("Hide window")
		waitLong(t, "the window hidden", func() bool { return !windowVisible() })
		second()
		waitLong(t, "the window shown again", windowVisible)
		second("--hidden") // start at login while it runs: nothing changes
		if n := strings.Count(a.logText(), "single instance: launch handed over"); n != 5 {
			t.Fatalf("%d launches handed over, want 5", n)
		}
		if others := appProcesses(a.root, a.cmd.Process.Pid); len(others) > 0 {
			t.Fatalf("other app processes on the data root: %v", others)
		}
	})

	t.Run("a task that fails before its first step leaves the runner idle", func(t *testing.T) {
		// Its folder is gone by the time it runs: it fails before any step.
		gone := t.TempDir()
		tray.click("Pause runner")
		tray.entry("Resume runner")
		id := a.cli("add", "--repo", gone, "--title", "Folder removed", "Anything.")
		if err := os.Remove(gone); err != nil {
			t.Fatal(err)
		}
		tray.click("Resume runner")
		a.waitStatus(id, "failed")
		// The badge shows the queue idle (it showed the task while it ran),
		// and the list shows why the task failed.
		a.waitShows("the idle runner after the failure", "Idle", "Folder removed", "does not exist")
		shot(t, "failed-before-first-step")
	})

	t.Run("quit", func(t *testing.T) {
		tray.click("Quit")
		if code := a.exited(); code != 0 {
			t.Fatalf("exit code %d", code)
		}
		if others := appProcesses(a.root, -1); len(others) > 0 {
			t.Fatalf("processes left on the data root: %v", others)
		}
		if strings.Contains(a.logText(), "level=ERROR") {
			t.Fatalf("the app logged an error:\n%s", a.logText())
		}
	})
}

// TestDesktopJourneyWithoutTray: no tray host on the bus. The app says so
// once, stays usable, shows its window even with --hidden, and closing the
// window quits it.
func TestDesktopJourneyWithoutTray(t *testing.T) {
	display := startXvfb(t)
	startSessionBus(t)
	wm := exec.Command("matchbox-window-manager", "-use_titlebar", "no", "-display", display)
	if err := wm.Start(); err != nil {
		t.Fatalf("matchbox-window-manager (apt package matchbox-window-manager): %v", err)
	}
	t.Cleanup(func() { wm.Process.Kill(); wm.Wait() })
	a := newDesktopApp(t)
	a.start("--hidden")
	a.waitLog("window: first paint")
	waitLong(t, "the window shown", windowVisible)
	a.waitShows("the first screen", "New task", "[focus Prompt (required)]")
	id := a.cli("add", "--title", "Works without a tray", "Say hi")
	a.waitStatus(id, "done")
	a.waitShows("the finished task", "Works without a tray")
	if n := strings.Count(a.logText(), "no system tray"); n != 1 {
		t.Fatalf("the missing tray host was logged %d times:\n%s", n, a.logText())
	}
	if out, err := exec.Command("wmctrl", "-c", "Boof Runner").CombinedOutput(); err != nil {
		t.Fatalf("wmctrl -c: %v\n%s", err, out)
	}
	if code := a.exited(); code != 0 {
		t.Fatalf("exit code %d after closing the window", code)
	}
}

// appProcesses lists the pids (but skip) whose command line names root.
func appProcesses(root string, skip int) []string {
	var out []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == skip || pid == os.Getpid() {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		cmd := strings.ReplaceAll(string(b), "\x00", " ")
		if strings.Contains(cmd, root) && !strings.Contains(cmd, "dbus-daemon") {
			out = append(out, fmt.Sprintf("%d %s", pid, cmd))
		}
	}
	return out
}

func (a *desktopApp) env0(key string) string {
	for i := len(a.env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(a.env[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}

// TestDesktopJourneyWithoutDisplay: started where no display can be
// opened, the app says so in one line and exits 1 (it used to panic in
// Wails with a stack trace), leaving the data root usable for the
// headless commands.
func TestDesktopJourneyWithoutDisplay(t *testing.T) {
	a := newDesktopApp(t)
	for _, display := range []string{"", ":97"} {
		cmd := exec.Command(a.bin, "--data-dir", a.root)
		cmd.Env = append(slices.DeleteFunc(slices.Clone(a.env), func(e string) bool {
			return strings.HasPrefix(e, "DISPLAY=") || strings.HasPrefix(e, "WAYLAND_DISPLAY=")
		}), "DISPLAY="+display)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			t.Fatalf("DISPLAY=%q: exit %v, want 1\n%s", display, err, stderr.String())
		}
		out := stderr.String()
		if strings.Contains(out, "panic") || !strings.Contains(out, "boof-runner: cannot open a display for the window") ||
			!strings.Contains(out, "run 'boof-runner help'") {
			t.Fatalf("DISPLAY=%q: stderr\n%s", display, out)
		}
	}
	id := a.cli("add", "--title", "Added without a display", "Say hi")
	if got := a.cli("show", id); !strings.Contains(got, "Added without a display") {
		t.Fatalf("show %s after the failed start:\n%s", id, got)
	}
}
