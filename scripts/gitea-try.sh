#!/usr/bin/env bash
# gitea-try.sh: reproduces issue 41's attempt to build and run the real Gitea
# (code.gitea.io/gitea v1.27.3) here, from the Go module proxy only. Not part of
# make test: a cold build takes a long time on this machine.
#
#   scripts/gitea-try.sh build   # go mod download + go build, cached under $OUT
#   scripts/gitea-try.sh serve   # gitea web on loopback with sqlite, an admin user, a PR via the API
#
# Every step prints what it did and how long it took; the log is $OUT/try.log.
# Status (issue 41, 2026-12-05): build took 58 min wall (447 s of CPU) on 2
# shared cores under nice -n 19 and made a 159,501,832-byte binary; serve then
# migrated in 7 s, made the admin user, answered on loopback after 3-4 s and
# opened pull request #1 through the API. The build cache keeps what was
# compiled, so a second build resumes.
set -euo pipefail
VER=v1.27.3
OUT=${GITEA_TRY_DIR:-$HOME/.cache/boof-runner/gitea/$VER}
BIN=$OUT/gitea
mkdir -p "$OUT"
log() { printf '%s %s\n' "$(date -u +%H:%M:%S)" "$*" | tee -a "$OUT/try.log"; }

build() {
  if [[ -x $BIN ]]; then log "cached: $BIN ($(stat -c %s "$BIN") bytes)"; return; fi
  local t0=$SECONDS mod
  # go install refuses the module's replace directives; download it and build inside it.
  mod=$(cd "$OUT" && GOFLAGS=-mod=mod go mod download -json "code.gitea.io/gitea@$VER" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')
  log "module source: $mod ($((SECONDS - t0))s)"
  rm -rf "$OUT/src"; cp -r "$mod" "$OUT/src"; chmod -R u+w "$OUT/src"
  cd "$OUT/src"
  t0=$SECONDS
  GOFLAGS=-mod=mod nice -n 19 go mod download >>"$OUT/try.log" 2>&1
  log "dependencies downloaded ($((SECONDS - t0))s)"
  t0=$SECONDS
  GOFLAGS=-mod=mod CGO_ENABLED=1 nice -n 19 go build -tags 'sqlite sqlite_unlock_notify' -o "$BIN" . >>"$OUT/try.log" 2>&1
  log "built $BIN: $(stat -c %s "$BIN") bytes in $((SECONDS - t0))s"
}

serve() {
  [[ -x $BIN ]] || { echo "no binary: run '$0 build' first" >&2; exit 1; }
  local run=$OUT/run port=${GITEA_TRY_PORT:-3999}
  rm -rf "$run"; mkdir -p "$run/custom/conf" "$run/data"
  cat >"$run/custom/conf/app.ini" <<INI
APP_NAME = boof-try
RUN_MODE = prod
RUN_USER = $(id -un)
; this machine's sessions run as root, which Gitea refuses without this
I_AM_BEING_UNSAFE_RUNNING_AS_ROOT = $([[ $(id -u) == 0 ]] && echo true || echo false)
WORK_PATH = $run
[server]
PROTOCOL = http
HTTP_ADDR = 127.0.0.1
HTTP_PORT = $port
ROOT_URL = http://127.0.0.1:$port/
DISABLE_SSH = true
OFFLINE_MODE = true
; built without the bindata tag: templates, locales and options are read from the source
STATIC_ROOT_PATH = $OUT/src
[database]
DB_TYPE = sqlite3
PATH = $run/data/gitea.db
[repository]
ROOT = $run/repos
[security]
INSTALL_LOCK = true
SECRET_KEY = boof-try-secret
INTERNAL_TOKEN = boof-try-internal-token-0123456789abcdef0123456789abcdef
[service]
DISABLE_REGISTRATION = true
[log]
MODE = file
ROOT_PATH = $run/log
[oauth2]
ENABLED = false
INI
  local cfg=(--config "$run/custom/conf/app.ini" --work-path "$run")
  local t0=$SECONDS
  "$BIN" "${cfg[@]}" migrate >>"$OUT/try.log" 2>&1
  log "database migrated ($((SECONDS - t0))s)"
  "$BIN" "${cfg[@]}" admin user create --admin --username boof --password 'boof-try-pass-1' \
    --email boof@example.invalid --must-change-password=false >>"$OUT/try.log" 2>&1
  log "admin user made"
  "$BIN" "${cfg[@]}" web >>"$OUT/try.log" 2>&1 &
  local pid=$!
  trap "kill $pid 2>/dev/null || true" EXIT
  t0=$SECONDS
  until curl -fsS "http://127.0.0.1:$port/api/v1/version" >/dev/null 2>&1; do
    kill -0 $pid 2>/dev/null || { log "gitea web exited"; exit 1; }
    (( SECONDS - t0 < 300 )) || { log "gitea web did not answer in 300s"; exit 1; }
    sleep 1
  done
  log "gitea web answers on 127.0.0.1:$port after $((SECONDS - t0))s: $(curl -fsS "http://127.0.0.1:$port/api/v1/version")"
  local api=http://127.0.0.1:$port/api/v1 auth=(-u boof:boof-try-pass-1 -H 'Content-Type: application/json')
  curl -fsS "${auth[@]}" -X POST "$api/user/repos" -d '{"name":"demo","auto_init":true,"default_branch":"main"}' >/dev/null
  log "repository boof/demo made"
  local clone=$run/clone
  git clone -q "http://boof:boof-try-pass-1@127.0.0.1:$port/boof/demo.git" "$clone"
  git -C "$clone" checkout -q -b boof-runner/try
  echo change >"$clone/CHANGE.md"
  git -C "$clone" add CHANGE.md
  git -C "$clone" -c user.name=boof -c user.email=boof@example.invalid commit -qm 'a change'
  git -C "$clone" push -q origin boof-runner/try
  log "branch pushed"
  local pr
  pr=$(curl -fsS "${auth[@]}" -X POST "$api/repos/boof/demo/pulls" \
    -d '{"title":"A change","body":"from gitea-try.sh","head":"boof-runner/try","base":"main"}')
  log "pull request opened: $(printf '%s' "$pr" | sed -n 's/.*"html_url":"\([^"]*\/pulls\/[0-9]*\)".*/\1/p')"
}

case ${1:-} in
  build) build ;;
  serve) serve ;;
  *) echo "usage: $0 build|serve" >&2; exit 2 ;;
esac
