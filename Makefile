# Boof Runner — the two commands a new user needs:
#   make run    installs what is missing, builds the desktop app and starts it
#   make test   installs what is missing and runs every test suite
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c

BIN      := build/bin/boof-runner
OUT      := out
CLI_DIR  ?= $(HOME)/.cache/boof-runner/clis
GO_TAGS  := desktop,production
# The test flags are fixed: no environment variable replaces them (and
# test-go refuses a GOFLAGS that would change what runs).
override GOFLAGS_TEST := -race -count=1 -timeout 25m -tags slow,realcli
override GOFLAGS_BENCH := -count=1 -run ^$$ -bench . -benchtime 1x -timeout 20m -tags slow,realcli
# Every build tag combination the code has, for go vet.
VET_TAGS := slow,realcli desktop,production desktop,dev

.PHONY: run build deps deps-apt deps-npm frontend test test-frontend test-go bench test-e2e test-window vet contract go-flags clean

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

# The README's test command: scripts/test.sh runs, in order and timed: system
# deps (and wails doctor), npm ci, the production front-end build, the
# generated contract check, vitest + svelte-check, go vet (every build tag) +
# gofmt, go test -race (every package, slow and real-CLI suites included),
# every Go benchmark once, the browser flows against the real backend, the
# real-window scripts; then a scan for any process the run left behind.
test:
	scripts/test.sh

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

vet: frontend
	go vet ./...
	for tags in $(VET_TAGS); do go vet -tags $$tags ./... || exit 1; done
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { echo "gofmt needed:"; gofmt -l $$(git ls-files '*.go'); exit 1; }

# GOFLAGS (environment or go env) must not change what the tests run.
go-flags:
	@case " $$(go env GOFLAGS) " in *" -run"*|*" -skip"*|*" -short"*|*" -count"*|*" -tags"*|*" -bench"*|*" -timeout"*|*" -failfast"*|*" -list"*) \
		echo "GOFLAGS ($$(go env GOFLAGS)) would change what the tests run; unset it"; exit 1;; esac

test-go: go-flags
	bin=$$(scripts/install-clis.sh $(CLI_DIR)); \
	BOOF_CLAUDE_BIN=$$bin/claude BOOF_CODEX_BIN=$$bin/codex go test $(GOFLAGS_TEST) ./...

# Every benchmark once, so the sanity checks inside them run.
bench: go-flags
	bin=$$(scripts/install-clis.sh $(CLI_DIR)); \
	BOOF_CLAUDE_BIN=$$bin/claude BOOF_CODEX_BIN=$$bin/codex go test $(GOFLAGS_BENCH) ./...

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
