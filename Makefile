# Boof Runner — the two commands a new user needs:
#   make run    installs what is missing, builds the desktop app and starts it
#   make test   installs what is missing and runs every test suite
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c

BIN      := build/bin/boof-runner
OUT      := out
CLI_DIR  ?= $(HOME)/.cache/boof-runner/clis
GO_TAGS  := desktop,production
VERSION  := $(shell scripts/version.sh)
LDFLAGS  := -s -w -X main.version=$(VERSION) -extldflags=-Wl,-z,relro,-z,now
PREFIX   ?= /usr/local
PKG_DIR  := build/bin/pkg
GOFLAGS_TEST ?= -race -timeout 25m -tags slow,realcli

.PHONY: run build deps deps-apt deps-npm frontend test test-frontend test-go test-e2e test-window test-desktop test-reliability reliability vet clean package install uninstall icons

run: build
	./$(BIN) $(ARGS)

build: deps frontend
	go build -tags $(GO_TAGS) -buildmode=pie -ldflags "$(LDFLAGS)" -o $(BIN) .

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

# The README's test command. Order: system deps (and the Wails tool, checked
# with wails doctor), npm ci, component tests,
# production front-end build, go vet, go test -race (every package, slow and
# real-CLI suites included), the browser test, the real-window smoke test,
# the desktop journeys (tray, single instance, notifications) and the
# install test of the package.
test: deps-apt
	go tool wails doctor >/dev/null || { go tool wails doctor; exit 1; }
	cd frontend && npm ci --no-audit --no-fund
	$(MAKE) test-frontend
	$(MAKE) frontend
	$(MAKE) vet
	$(MAKE) test-go
	$(MAKE) test-reliability
	$(MAKE) test-e2e
	$(MAKE) test-window
	$(MAKE) test-desktop

test-frontend:
	cd frontend && npm test

vet:
	go vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { echo "gofmt needed:"; gofmt -l $$(git ls-files '*.go'); exit 1; }

test-go:
	bin=$$(scripts/install-clis.sh $(CLI_DIR)); \
	BOOF_CLAUDE_BIN=$$bin/claude BOOF_CODEX_BIN=$$bin/codex go test $(GOFLAGS_TEST) ./...

test-e2e:
	cd frontend && npm run build:fake && npm run test:e2e

# The reliability report (rows R1…R7 in backend/reliability, build tag
# reliability): the short version (seconds per row) in make test, the full
# one here; both print the table and save it as out/reliability.md.
test-reliability:
	scripts/reliability.sh

reliability:
	scripts/reliability.sh --full

test-window: build
	scripts/smoke-window.sh $(BIN) $(OUT)/screens
	scripts/e2e-window.sh $(BIN) $(OUT)/screens

# The desktop journeys through the real binary (app/shell/journey_test.go:
# tray over D-Bus, second launches, notification clicks, no tray host), then
# the install test of the package (apt-get install, gtk-launch twice, remove).
test-desktop: package
	BOOF_APP_BIN=$(abspath $(BIN)) BOOF_SCREENS=$(abspath $(OUT)/screens) go test -tags journey -count=1 -timeout 15m -run 'TestDesktopJourney' -v ./app/shell/ 2>&1 | grep -vE '^=== (RUN|PAUSE|CONT)'
	scripts/test-install.sh $(PKG_DIR) $(BIN) $(OUT)/screens

clean:
	rm -rf build/bin frontend/dist frontend/dist-fake $(OUT)
