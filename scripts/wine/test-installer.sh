#!/usr/bin/env bash
# test-installer.sh SETUP.EXE — the NSIS installer under Wine 8: a silent
# install (/S) puts both .exe files, the Start-menu entry and the uninstaller
# in place and takes the WebView2 check's offline branch (Wine has no
# WebView2 and no network); the installed headless .exe runs; a silent
# uninstall removes what the install put there (and the start-at-login
# value the app wrote, not a user's own) and leaves the data root
# (%AppData%\Boof Runner, with a file planted in it first) untouched.
# Exits non-zero, saying what, on the first difference.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
setup=$(cd "$(dirname "${1:?usage: test-installer.sh SETUP.EXE}")" && pwd)/$(basename "$1")
export WINEPREFIX WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
WINEPREFIX=$("$here/setup.sh")
trap 'echo "test-installer: FAIL: a command failed at line $LINENO" >&2' ERR
fail() { echo "test-installer: FAIL: $*" >&2; wineserver -k 2>/dev/null || true; exit 1; }
winvar() { winepath -u "$(wine cmd /c "echo %$1%" 2>/dev/null | tr -d '\r')"; }
local_app=$(winvar LOCALAPPDATA)
roaming=$(winvar APPDATA)
inst="$local_app/Programs/Boof Runner"
data="$roaming/Boof Runner"
menu="$roaming/Microsoft/Windows/Start Menu/Programs/Boof Runner.lnk"
rm -rf "$inst"
mkdir -p "$data"
printf 'a task the user made\r\n' >"$data/keep.txt"
sum=$(cd "$data" && find . -type f -exec sha256sum {} + | sort)

wine "$setup" /S
wineserver -w
for f in boof-runner.exe boof-runner-desktop.exe uninstall.exe install.log; do
	[ -f "$inst/$f" ] || fail "the install left no $f in $inst"
done
[ -f "$menu" ] || fail "no Start-menu entry ($menu)"
grep -q 'WebView2 runtime: offline' "$inst/install.log" ||
	fail "the WebView2 check did not take its offline branch: $(tr -d '\r' <"$inst/install.log")"
out=$(wine "$inst/boof-runner.exe" --version 2>&1 | tr -d '\r') || fail "the installed boof-runner.exe --version failed: $out"
case $out in "boof-runner "*) ;; *) fail "boof-runner.exe --version printed: $out";; esac
echo "test-installer: installed ($(du -sh "$inst" | cut -f1)), runs: $out"

# Start at login as the app writes it (app/shell/autostart_windows.go): the
# Run value and its copy; the uninstall removes both.
run='HKCU\Software\Microsoft\Windows\CurrentVersion\Run'
own='HKCU\Software\Boof Runner'
cmdline="\"$(winepath -w "$inst/boof-runner-desktop.exe")\" --hidden"
wine reg add "$run" /v "Boof Runner" /t REG_SZ /d "$cmdline" /f >/dev/null 2>&1
wine reg add "$own" /v StartAtLogin /t REG_SZ /d "$cmdline" /f >/dev/null 2>&1
wine reg query "$run" /v "Boof Runner" >/dev/null 2>&1 || fail "could not plant the start-at-login value"

wine "$inst/uninstall.exe" /S
wineserver -w
! wine reg query "$run" /v "Boof Runner" >/dev/null 2>&1 || fail "the uninstall left the start-at-login value"
! wine reg query "$own" >/dev/null 2>&1 || fail "the uninstall left $own"
[ ! -e "$inst" ] || fail "the uninstall left $(ls -A "$inst")"
[ ! -e "$menu" ] || fail "the uninstall left the Start-menu entry"
[ "$(cd "$data" && find . -type f -exec sha256sum {} + | sort)" = "$sum" ] || fail "the data root changed"
rm -rf "$data"
echo "test-installer: uninstalled; the data root is untouched"
