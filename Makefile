# Boof Runner — the two commands a new user needs:
#   make run    installs what is missing, builds the desktop app and starts it
#   make test   installs what is missing and runs every test suite
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c

BIN      := build/bin/boof-runner
OUT      := out
CLI_DIR  ?= $(HOME)/.cache/boof-runner/clis
GO_TAGS  := desktop,production
GOFLAGS_TEST ?= -race -timeout 25m -tags slow,realcli

.PHONY: run build deps deps-apt deps-npm frontend test test-frontend test-go test-e2e test-window vet contract clean

run: build
	./$(BIN) $(ARGS)

build: deps frontend
	go build -tags $(GO_TAGS) -ldflags "-s -w" -o $(BIN) .

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
# real-CLI suites included), the browser test, the real-window smoke test.
test: deps-apt
	go tool wails doctor >/dev/null || { go tool wails doctor; exit 1; }
	cd frontend && npm ci --no-audit --no-fund
	$(MAKE) test-frontend
	$(MAKE) frontend
	$(MAKE) vet
	$(MAKE) test-go
	$(MAKE) test-e2e
	$(MAKE) test-window

test-frontend:
	cd frontend && npm test
	cd frontend && npm run check

# The generated contract: Wails' bindings (methods, arguments, results) and our
# event names and payloads, regenerated from the Go types; any difference from
# what is committed fails (commit the regenerated files with the Go change).
CONTRACT_FILES := frontend/wailsjs frontend/src/lib/backend/events.gen.ts
contract:
	@out=$$(go tool wails generate module -tags desktop 2>&1) || { echo "$$out"; exit 1; }
	go run ./app/internal/genevents -o frontend/src/lib/backend/events.gen.ts
	@if [ -n "$$(git status --porcelain -- $(CONTRACT_FILES))" ]; then \
		echo "the generated contract differs from what is committed:"; git status --short -- $(CONTRACT_FILES); \
		git --no-pager diff --stat -- $(CONTRACT_FILES); exit 1; fi

vet:
	go vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { echo "gofmt needed:"; gofmt -l $$(git ls-files '*.go'); exit 1; }

test-go:
	bin=$$(scripts/install-clis.sh $(CLI_DIR)); \
	BOOF_CLAUDE_BIN=$$bin/claude BOOF_CODEX_BIN=$$bin/codex go test $(GOFLAGS_TEST) ./...

# The browser flows against the real backend: a dev-tagged build serves
# frontend/dist with live Go bindings (see frontend/e2e/real/app.mjs).
DEV_BIN := build/bin/boof-runner-dev
test-e2e: frontend
	go build -tags desktop,dev -o $(DEV_BIN) .
	cd frontend && node e2e/real/run.mjs ../$(DEV_BIN)

test-window: build
	scripts/smoke-window.sh $(BIN) $(OUT)/screens
	scripts/e2e-window.sh $(BIN) $(OUT)/screens

clean:
	rm -rf build/bin frontend/dist frontend/dist-fake $(OUT)
