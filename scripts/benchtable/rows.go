package main

// row is one line of the benchmark table: which benchmark's metric it
// reads, the goal it is held to, and the figures shown next to it.
type row struct {
	id   string
	what string
	// bench is the benchmark's name without the -GOMAXPROCS suffix.
	bench string
	// metric is the figure compared with the goal; offset is added to it
	// first (-1000 turns "ms/stop" with a 1 s grace into "grace + ms").
	metric string
	offset float64
	// atMost is true for "≤ goal", false for "≥ goal".
	atMost bool
	goal   float64
	unit   string
	// detail names the other metrics shown as the measured figures.
	detail []string
	// info marks a row shown for context, held to no goal.
	info bool
}

// rows are the ids (P…) and the kept figures (K…), in table order.
var rows = []row{
	{id: "P1", what: "5-step mock task ÷ the same git and process work in a shell script",
		bench: "BenchmarkOrchestrationOverhead", metric: "ratio", atMost: true, goal: 1.10, unit: "×",
		detail: []string{"pipeline-ms/op", "script-ms/op"}},
	{id: "P2", what: "`boof-runner stop` from another process → last process of a hostile tree gone (grace 1 s)",
		bench: "BenchmarkStopFromCLI/hostile-grace-1s", metric: "ms/stop", offset: -1000, atMost: true, goal: 150, unit: "ms over grace",
		detail: []string{"ms/stop"}},
	{id: "P2c", what: "`boof-runner stop` from another process → cooperative tree gone, end to end",
		bench: "BenchmarkStopFromCLI/cooperative", metric: "ms/stop", atMost: true, goal: 100, unit: "ms",
		detail: []string{"ms/stop"}},
	{id: "P6a", what: "headless `list` of the installed command ÷ a binary built without the desktop tag (medians of 30 alternated runs)",
		bench: "BenchmarkHeadlessCommand/list", metric: "ratio", atMost: true, goal: 1.2, unit: "×",
		detail: []string{"ms/command", "ms/headless-only", "ms/desktop-binary"}},
	{id: "P6a0", what: "the same `list` through the window binary ÷ the baseline (what `boof-runner list` cost before the split)",
		bench: "BenchmarkHeadlessCommand/list", metric: "desktop-ratio", unit: "×", info: true,
		detail: []string{"ms/desktop-binary", "ms/headless-only"}},
	{id: "P6a+", what: "headless `add` of the installed command ÷ a binary built without the desktop tag (medians of 30 alternated runs)",
		bench: "BenchmarkHeadlessCommand/add", metric: "ratio", atMost: true, goal: 1.2, unit: "×",
		detail: []string{"ms/command", "ms/headless-only", "ms/desktop-binary"}},
	{id: "P6b", what: "cold start to first paint under Xvfb (median)",
		bench: "BenchmarkDesktopStart", metric: "ms/first-paint", atMost: true, goal: 500, unit: "ms",
		detail: []string{"ms/first-paint"}},
	{id: "P6b0", what: "the same cold start ÷ a bare WebKitGTK program's (`scripts/webkitfloor`: a one-line page, the app's window size and WebKit settings; medians, alternated): the floor of any WebKitGTK window here",
		bench: "BenchmarkDesktopStart", metric: "floor-ratio", unit: "×", info: true,
		detail: []string{"ms/first-paint", "ms/floor-first-paint"}},
	{id: "P6b+", what: "idle PSS of the app's whole process tree, 5 s after first paint",
		bench: "BenchmarkDesktopStart", metric: "MiB-PSS", atMost: true, goal: 150, unit: "MiB",
		detail: []string{"MiB-PSS", "MiB-RSS"}},
	{id: "P6b+0", what: "the same PSS ÷ the bare WebKitGTK program's (P6b0), 5 s after its first paint",
		bench: "BenchmarkDesktopStart", metric: "floor-PSS-ratio", unit: "×", info: true,
		detail: []string{"MiB-PSS", "MiB-PSS-floor"}},
	{id: "P8", what: "squash accept of 1,000 commits ÷ raw git, target not checked out",
		bench: "BenchmarkAcceptSquash1000/unchecked", metric: "ratio", atMost: true, goal: 1.1, unit: "×",
		detail: []string{"ms/accept", "ms/raw"}},
	{id: "K1", what: "stop of a cooperative step, in process",
		bench: "BenchmarkStopLatency/cooperative", metric: "ms/stop", atMost: true, goal: 100, unit: "ms",
		detail: []string{"ms/stop"}},
	{id: "K2", what: "stop of a hostile step, in process (grace 1 s)",
		bench: "BenchmarkStopLatency/hostile-grace-1s", metric: "ms/stop", offset: -1000, atMost: true, goal: 150, unit: "ms over grace",
		detail: []string{"ms/stop"}},
	{id: "K3", what: "200 MB streamed through the runner ÷ raw PTY read (rate; median of the alternated pairs' ratios)",
		bench: "BenchmarkThroughput", metric: "ratio", atMost: false, goal: 0.8, unit: "×",
		detail: []string{"runner-MB/s", "raw-MB/s", "ratio-of-totals"}},
	{id: "K3s", what: "the same ÷ a raw read of a child in its own session with the PTY as its terminal, as the runner starts it (the kernel's per-session scheduling, autogroup, is then on both sides)",
		bench: "BenchmarkThroughput", metric: "ratio-to-session", unit: "×", info: true,
		detail: []string{"runner-MB/s", "raw-session-MB/s"}},
	{id: "K4", what: "peak RSS growth while streaming 200 MB",
		bench: "BenchmarkThroughput", metric: "peak-RSS-growth-MB", atMost: true, goal: 16, unit: "MB",
		detail: []string{"peak-RSS-growth-MB"}},
	{id: "K5", what: "pick-next at 100k tasks",
		bench: "BenchmarkStore100k/pick-next", metric: "ns/op", atMost: true, goal: 1e6, unit: "ns",
		detail: []string{"ns/op"}},
	{id: "K6", what: "5,000-file diff listed ÷ `git diff --numstat` (median of the alternated pairs' ratios)",
		bench: "BenchmarkFiles", metric: "x-raw", atMost: true, goal: 1.1, unit: "×",
		detail: []string{"ms-ours/op", "ms-raw/op", "x-raw-totals"}},
	{id: "K7", what: "4 parallel tasks: throughput ÷ one task",
		bench: "BenchmarkParallelTasks", metric: "throughput-x", atMost: false, goal: 3.6, unit: "×",
		detail: []string{"one-task-ms", "four-tasks-ms"}},
	{id: "K8", what: "task worktree provisioned ÷ raw `git worktree add -b` (median of the alternated pairs' ratios)",
		bench: "BenchmarkProvision", metric: "x-raw", atMost: true, goal: 1.2, unit: "×",
		detail: []string{"ms-ours/op", "ms-raw/op", "x-raw-totals"}},
	{id: "K9", what: "leftovers commit of 200 files ÷ raw `git add -A && git commit` (median of the alternated pairs' ratios)",
		bench: "BenchmarkSaveLeftovers", metric: "x-raw", atMost: true, goal: 1.2, unit: "×",
		detail: []string{"ms-ours/op", "ms-raw/op", "x-raw-totals"}},
	{id: "K10", what: "one claude step through the adapter ÷ the same in a shell (real CLI, fake model)",
		bench: "BenchmarkStepOverhead", metric: "ratio", atMost: true, goal: 1.1, unit: "×",
		detail: []string{"adapter-ms/step", "shell-ms/step"}},
	{id: "K11", what: "one codex step through the adapter ÷ the same in a shell (real CLI, fake model)",
		bench: "BenchmarkAdapterVsShell", metric: "adapter/shell", atMost: true, goal: 1.1, unit: "×",
		detail: []string{"adapter-ms/step", "shell-ms/step"}},
	{id: "K12", what: "secret scrubbing of the real CLIs' recorded output, streamed in 64 KiB reads (no baseline: shown for context)",
		bench: "BenchmarkScrubRecorded/stream", metric: "MB/s", unit: "MB/s", info: true,
		detail: []string{"MB/s"}},
	{id: "K13", what: "import of 1,000 task files into a fresh store (no baseline: shown for context)",
		bench: "BenchmarkDir1000", metric: "cpu-ms/op", unit: "CPU ms", info: true,
		detail: []string{"ns/op", "cpu-ms/op"}},
}
