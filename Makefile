# Boof Runner — the two commands a new user needs:
#   make run    installs what is missing, builds the desktop app and starts it
#   make test   installs what is missing and runs every test suite
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c

BIN      := build/bin/boof-runner
# The window: BIN is the headless command the user types (no GTK, no
# WebKit loaded) and execs DESK_BIN only to open the window (main.go).
DESK_BIN := build/bin/boof-runner-desktop
OUT      := out
CLI_DIR  ?= $(HOME)/.cache/boof-runner/clis
GO_TAGS  := desktop,production
VERSION  := $(shell scripts/version.sh)
LDFLAGS  := -s -w -X main.version=$(VERSION) -extldflags=-Wl,-z,relro,-z,now
PREFIX   ?= /usr/local
PKG_DIR  := build/bin/pkg
# The test flags are fixed: no environment variable replaces them (and
# test-go refuses a GOFLAGS that would change what runs).
override GOFLAGS_TEST := -race -count=1 -timeout 25m -tags slow,realcli
override GOFLAGS_K8S := -race -count=1 -timeout 45m -tags k8s -v
override GOFLAGS_BENCH := -count=1 -run ^$$ -bench . -benchtime 1x -timeout 20m -tags slow,realcli
# Every build tag combination the code has, for go vet.
VET_TAGS := slow,realcli desktop,production desktop,dev reliability journey k8s

.PHONY: build-windows test-windows build-darwin vet-cross
.PHONY: run build deps deps-apt deps-npm frontend test test-frontend test-go bench bench-smoke bench-review test-e2e test-window test-desktop test-reliability test-k8s test-k8s-cached image reliability vet contract go-flags clean package install uninstall icons

run: build
	./$(BIN) $(ARGS)

build: deps frontend
	go build -tags $(GO_TAGS) -buildmode=pie -ldflags "$(LDFLAGS)" -o $(DESK_BIN) .
	go build -buildmode=pie -ldflags "$(LDFLAGS)" -o $(BIN) .

# The .deb and the .rpm in $(PKG_DIR) (nfpm, a Go tool of this module; config
# build/linux/nfpm.yaml), checked with lintian when it is installed.
package: build
	mkdir -p $(PKG_DIR)
	rm -f $(PKG_DIR)/*.deb $(PKG_DIR)/*.rpm
	gzip -9nc build/linux/doc/boof-runner.1 >$(PKG_DIR)/boof-runner.1.gz
	BOOF_VERSION=$(VERSION) BOOF_ARCH=$$(go env GOARCH) go tool nfpm package -f build/linux/nfpm.yaml -p deb -t $(PKG_DIR)/
	BOOF_VERSION=$(VERSION) BOOF_ARCH=$$(go env GOARCH) go tool nfpm package -f build/linux/nfpm.yaml -p rpm -t $(PKG_DIR)/
	if command -v lintian >/dev/null; then lintian --fail-on error,warning $(PKG_DIR)/*.deb; fi
	ls -l $(PKG_DIR)/*.deb $(PKG_DIR)/*.rpm

# For one user without root: make install PREFIX=~/.local (then make
# uninstall PREFIX=~/.local removes exactly those files, never your data).
install: build
	scripts/install.sh install $(abspath $(PREFIX)) $(BIN)

uninstall:
	scripts/install.sh uninstall $(abspath $(PREFIX))

# Regenerate the committed hicolor icons from build/appicon.png.
icons:
	scripts/icons.sh

deps: deps-apt deps-npm

deps-apt:
	scripts/deps-apt.sh

# npm ci only when the lock file changed since the last install.
deps-npm: frontend/node_modules/.package-lock.json
frontend/node_modules/.package-lock.json: frontend/package-lock.json
	cd frontend && npm ci --no-audit --no-fund

frontend: deps-npm
	cd frontend && npm run build

# The README's test command: scripts/test.sh runs, in order and timed: system
# deps (and wails doctor), npm ci, the production front-end build, the
# generated contract check, vitest + svelte-check, go vet (every build tag) +
# gofmt, go test -race (every package, slow and real-CLI suites included),
# the cluster journeys against a real control plane when it is cached
# (make test-k8s-cached; make test-k8s builds it),
# every Go benchmark once, the short reliability report, the browser flows
# against the real backend, the real-window scripts, the desktop journeys
# (tray, single instance, notifications) and the install test of the
# package; then a scan for any process the run left behind.
test:
	scripts/test.sh

test-frontend:
	cd frontend && npm test
	cd frontend && npm run check

# The generated contract: Wails' bindings (methods, arguments, results) and our
# event names and payloads with the vocabulary they carry (each Go string enum
# as the union of its constants, app.Lists), regenerated from the Go types, and
# the goldens of what Go says (usererr's sentences, the settings field errors,
# the bound calls with bad input: written by the Go tests named *Golden* with
# -update) that the front end's stubs answer with; any difference from what is
# committed fails (commit the regenerated files with the Go change).
GOLDENS := $(addprefix frontend/src/lib/backend/,usererr-golden.json settings-golden.json calls-golden.json)
CONTRACT_FILES := frontend/wailsjs frontend/src/lib/backend/events.gen.ts $(GOLDENS)
contract:
	@out=$$(go tool wails generate module -tags desktop 2>&1) || { echo "$$out"; exit 1; }
	go run ./app/internal/genevents -o frontend/src/lib/backend/events.gen.ts
	go test -count=1 -run Golden ./backend/usererr ./app -args -update
	@if [ -n "$$(git status --porcelain -- $(CONTRACT_FILES))" ]; then \
		echo "the generated contract differs from what is committed:"; git status --short -- $(CONTRACT_FILES); \
		git --no-pager diff --stat -- $(CONTRACT_FILES); exit 1; fi

vet: frontend
	go vet ./...
	for tags in $(VET_TAGS); do go vet -tags $$tags ./... || exit 1; done
	scripts/vet-cross.sh $(VET_TAGS)
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { echo "gofmt needed:"; gofmt -l $$(git ls-files '*.go'); exit 1; }

# CLI_ENV,BIN is the environment that points the real-CLI tests at the
# CLIs scripts/install-clis.sh installed in BIN.
CLI_ENV = BOOF_CLAUDE_BIN=$(1)/claude BOOF_CODEX_BIN=$(1)/codex BOOF_GEMINI_BIN=$(1)/gemini \
	BOOF_OPENCODE_BIN=$(1)/opencode BOOF_QWEN_BIN=$(1)/qwen

# GOFLAGS (environment or go env) must not change what the tests run.
go-flags:
	@case " $$(go env GOFLAGS) " in *" -run"*|*" -skip"*|*" -short"*|*" -count"*|*" -tags"*|*" -bench"*|*" -timeout"*|*" -failfast"*|*" -list"*) \
		echo "GOFLAGS ($$(go env GOFLAGS)) would change what the tests run; unset it"; exit 1;; esac

test-go: go-flags
	bin=$$(scripts/install-clis.sh $(CLI_DIR)); \
	$(call CLI_ENV,$$bin) go test $(GOFLAGS_TEST) ./...

# The cluster journeys (backend/executor/kubernetes, build tag k8s; see
# docs/cluster.md) against a real control plane: scripts/k8s-testbin.sh
# builds etcd, kube-apiserver, kube-controller-manager, kube-scheduler and
# kwok once from the Go module proxy (about 20 minutes cold on 2 cores) and
# caches them under ~/.cache/boof-runner/k8s-testbin; then the control plane
# starts (about 20 s) and the journeys run against it.
test-k8s: go-flags
	bin=$$(scripts/k8s-testbin.sh); \
	BOOF_K8S_BIN=$$bin go test $(GOFLAGS_K8S) ./backend/executor/kubernetes/... 2>&1 | grep -vE '^=== (RUN|PAUSE|CONT)'

# make test's stage: the journeys when the control plane is cached, else
# one line saying how to build it; it never builds it (a cold build takes
# about 40 minutes on 2 loaded cores, and CI's fresh machine has 90 for
# everything).
test-k8s-cached: go-flags
	@if bin=$$(scripts/k8s-testbin.sh --cached); then \
		BOOF_K8S_BIN=$$bin go test $(GOFLAGS_K8S) ./backend/executor/kubernetes/... 2>&1 | grep -vE '^=== (RUN|PAUSE|CONT)'; \
	else \
		echo "test-k8s: the cluster journeys skipped: the test control plane is not cached (make test-k8s builds it once, about 40 minutes, and runs them)"; \
	fi

# The image tasks run in when they run in a cluster (build/Containerfile,
# docs/cluster.md), built where a builder exists (podman or docker; this
# project's CI machine has none, so make test does not build it).
IMAGE ?= boof-runner:$(subst +,-,$(VERSION))
image:
	@b=$$(command -v podman || command -v docker) || { echo "make image needs podman or docker, and neither is installed (docs/cluster.md)"; exit 1; }; \
	$$b build -f build/Containerfile --build-arg VERSION=$(VERSION) \
		--build-arg CLAUDE_VERSION=$$(sed -n 's/^CLAUDE_VERSION=//p' scripts/install-clis.sh) \
		--build-arg CODEX_VERSION=$$(sed -n 's/^CODEX_VERSION=//p' scripts/install-clis.sh) -t $(IMAGE) .

# Every benchmark once, so the sanity checks inside them run (make test).
bench-smoke: go-flags
	bin=$$(scripts/install-clis.sh $(CLI_DIR)); \
	$(call CLI_ENV,$$bin) go test $(GOFLAGS_BENCH) ./...

# The measurement: every benchmark side by side with its baseline, one
# table (id, figure, goal, holds) printed and saved as out/bench.md
# (scripts/bench.sh, rows in scripts/benchtable/rows.go).
bench: go-flags build
	bin=$$(scripts/install-clis.sh $(CLI_DIR)); \
	$(call CLI_ENV,$$bin) scripts/bench.sh $(BIN)

# The browser flows against the real backend: a dev-tagged build serves
# frontend/dist with live Go bindings (see frontend/e2e/real/app.mjs); the
# fake forge the pull request flows talk to is forgetest's compiled test
# binary (TestServe), beside it and never in the app.
DEV_BIN := build/bin/boof-runner-dev
test-e2e: frontend
	go build -tags desktop,dev -o $(DEV_BIN) .
	go test -c -o build/bin/fakeforge.test ./backend/forge/forgetest
	cd frontend && node e2e/real/run.mjs ../$(DEV_BIN)

# The 500k-line review measured on screen (frontend/e2e/bench-review.mjs):
# figures, no thresholds; minutes long, so not part of make test.
bench-review: frontend
	go build -tags desktop,dev -o $(DEV_BIN) .
	cd frontend && node e2e/bench-review.mjs ../$(DEV_BIN)

# The reliability report (rows R1…R7 in backend/reliability, build tag
# reliability): the short version (seconds per row) in make test, the full
# one here; both print the table and save it as out/reliability.md.
test-reliability:
	scripts/reliability.sh

reliability:
	scripts/reliability.sh --full

test-window: build
	scripts/smoke-window.sh $(BIN) $(OUT)/screens
	scripts/first-frame-window.sh $(BIN) $(OUT)/screens
	scripts/e2e-window.sh $(BIN) $(OUT)/screens

# The desktop journeys through the real binary (app/shell/journey_test.go:
# tray over D-Bus, second launches, notification clicks, no tray host), then
# the install test of the package (apt-get install, gtk-launch twice, remove).
test-desktop: package
	BOOF_APP_BIN=$(abspath $(BIN)) BOOF_SCREENS=$(abspath $(OUT)/screens) go test -tags journey -count=1 -timeout 15m -run 'TestDesktopJourney' -v ./app/shell/ 2>&1 | grep -vE '^=== (RUN|PAUSE|CONT)'
	scripts/test-install.sh $(PKG_DIR) $(BIN) $(OUT)/screens

# Windows and macOS (docs/platforms.md). The Windows x64 build: the headless
# and desktop .exe (cgo through mingw-w64) and the NSIS installer, in WIN_DIR.
WIN_DIR    := build/bin/windows
DARWIN_DIR := build/bin/darwin
# The packages whose tests run under Wine (scripts/wine/test.sh): the
# portable ones, and proc's Job Object tests; of app/shell only the
# start-at-login and notification-builder tests (its others were not
# tried under Wine). Not here:
# usererr (its tests run git, which the Wine prefix lacks; names' one git
# test skips).
WINE_PKGS  := ./backend/task/... ./backend/taskmd/... ./backend/store/... ./backend/secrets/... \
	./backend/filelock/... ./backend/proc/... ./backend/settings/... ./backend/dataroot/... \
	./backend/atomicfile/... ./backend/userfile/... ./backend/names/... ./backend/budget/... \
	./backend/tmpdir/... ./backend/failpoint/... ./backend/schedule/... ./backend/wake/...
build-windows: deps-apt frontend
	scripts/build-windows.sh $(WIN_DIR) $(VERSION)

# The Windows tests under Wine 8, then the installer installed and
# uninstalled silently under it (make test runs this).
test-windows: build-windows
	scripts/wine/test.sh $(WINE_PKGS)
	scripts/wine/test.sh -run '^(TestAutostart|TestOsascript|TestToastCommand)' ./app/shell/
	scripts/wine/test-installer.sh $(WIN_DIR)/boof-runner-$(VERSION)-setup.exe

# The headless macOS binaries (arm64, amd64), cgo through Zig from npm
# (not a make test stage yet: see docs/platforms.md).
build-darwin:
	scripts/build-darwin.sh $(DARWIN_DIR) $(VERSION)

# Only the cross-OS vet (make vet runs it too).
vet-cross:
	scripts/vet-cross.sh $(VET_TAGS)

clean:
	rm -rf build/bin frontend/dist $(OUT)
