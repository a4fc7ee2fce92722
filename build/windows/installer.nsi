; The Boof Runner installer for Windows (x64), built by scripts/build-windows.sh
; with Debian's makensis:
;   makensis -DVERSION=1.2.3 -DBINDIR=build/bin/windows -DOUTFILE=... installer.nsi
; A per-user install (no administrator rights): the program in
; %LocalAppData%\Programs\Boof Runner, a Start-menu entry, an uninstaller
; listed in Apps & features. Neither installing nor uninstalling touches the
; data root (%AppData%\Boof Runner): tasks, transcripts and settings stay.
; Silent with /S (what scripts/wine/test-installer.sh runs under Wine).
Unicode true
Target amd64-unicode
RequestExecutionLevel user
SetCompressor /SOLID lzma

!ifndef VERSION
  !define VERSION "0.0.0"
!endif
!ifndef BINDIR
  !error "BINDIR (the folder with boof-runner.exe and boof-runner-desktop.exe) is required"
!endif
!ifndef OUTFILE
  !define OUTFILE "boof-runner-setup.exe"
!endif
!define NAME "Boof Runner"
!define UNINST_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\BoofRunner"
; Start at login: the Run value "Boof Runner" and the app's copy of it
; (StartAtLogin under OWN_KEY) that says the value is the app's.
!define RUN_KEY "Software\Microsoft\Windows\CurrentVersion\Run"
!define OWN_KEY "Software\Boof Runner"
; The WebView2 runtime's client key (Microsoft's documented detection).
!define WV2_GUID "{F3017226-FE2A-4295-8BDF-00C3A9A7E4C5}"
!define WV2_URL "https://go.microsoft.com/fwlink/p/?LinkId=2124703"

Name "${NAME}"
OutFile "${OUTFILE}"
InstallDir "$LOCALAPPDATA\Programs\${NAME}"
InstallDirRegKey HKCU "${UNINST_KEY}" "InstallLocation"
!include "LogicLib.nsh"
!include "FileFunc.nsh"

Page directory
Page instfiles
UninstPage uninstConfirm
UninstPage instfiles

Var log

; Log LINE: the line to install.log beside the program (what a silent
; install leaves to read) and to the details view.
!macro Log line
  FileWrite $log "${line}$\r$\n"
  DetailPrint "${line}"
!macroend

Section "Boof Runner" SecMain
  SetShellVarContext current
  SetOutPath "$INSTDIR"
  FileOpen $log "$INSTDIR\install.log" w
  !insertmacro Log "Boof Runner ${VERSION} into $INSTDIR"
  File "${BINDIR}\boof-runner.exe"
  File "${BINDIR}\boof-runner-desktop.exe"
  WriteUninstaller "$INSTDIR\uninstall.exe"
  CreateShortcut "$SMPROGRAMS\${NAME}.lnk" "$INSTDIR\boof-runner-desktop.exe"
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayName" "${NAME}"
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${UNINST_KEY}" "Publisher" "Boof Runner"
  WriteRegStr HKCU "${UNINST_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayIcon" "$INSTDIR\boof-runner-desktop.exe"
  WriteRegStr HKCU "${UNINST_KEY}" "UninstallString" '"$INSTDIR\uninstall.exe"'
  WriteRegStr HKCU "${UNINST_KEY}" "QuietUninstallString" '"$INSTDIR\uninstall.exe" /S'
  WriteRegDWORD HKCU "${UNINST_KEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINST_KEY}" "NoRepair" 1
  Call WebView2
  FileClose $log
SectionEnd

; WebView2: the window needs Microsoft's WebView2 runtime (in Windows 11 and
; in current Windows 10). When it is missing the installer downloads the
; Evergreen bootstrapper with the curl.exe Windows ships and runs it; when
; that fails (offline, no curl.exe: what Wine gives) the install still
; completes and says so; the window then explains it at start.
Function WebView2
  ReadRegStr $0 HKLM "SOFTWARE\WOW6432Node\Microsoft\EdgeUpdate\Clients\${WV2_GUID}" "pv"
  ${If} $0 == ""
    ReadRegStr $0 HKCU "Software\Microsoft\EdgeUpdate\Clients\${WV2_GUID}" "pv"
  ${EndIf}
  ${If} $0 != ""
  ${AndIf} $0 != "0.0.0.0"
    !insertmacro Log "WebView2 runtime: found ($0)"
    Return
  ${EndIf}
  !insertmacro Log "WebView2 runtime: not found; downloading the bootstrapper"
  StrCpy $1 "$TEMP\MicrosoftEdgeWebview2Setup.exe"
  ClearErrors
  ExecWait '"$SYSDIR\curl.exe" -fsSL -o "$1" "${WV2_URL}"' $2
  ${If} ${Errors}
  ${OrIf} $2 != 0
    !insertmacro Log "WebView2 runtime: offline (the download failed); install it from https://developer.microsoft.com/microsoft-edge/webview2/ before opening the window"
    Return
  ${EndIf}
  ExecWait '"$1" /silent /install' $2
  Delete "$1"
  !insertmacro Log "WebView2 runtime: bootstrapper exit code $2"
FunctionEnd

Section "Uninstall"
  SetShellVarContext current
  Delete "$SMPROGRAMS\${NAME}.lnk"
  Delete "$INSTDIR\boof-runner.exe"
  Delete "$INSTDIR\boof-runner-desktop.exe"
  Delete "$INSTDIR\install.log"
  Delete "$INSTDIR\uninstall.exe"
  RMDir "$INSTDIR"
  DeleteRegKey HKCU "${UNINST_KEY}"
  ; Start at login (app/shell/autostart_windows.go): the Run value goes only
  ; when it is the one the app wrote (equal to its copy); a user's own
  ; value under that name stays. Then the app's own key.
  ReadRegStr $0 HKCU "${OWN_KEY}" "StartAtLogin"
  ReadRegStr $1 HKCU "${RUN_KEY}" "${NAME}"
  ${If} $0 != ""
  ${AndIf} $0 == $1
    DeleteRegValue HKCU "${RUN_KEY}" "${NAME}"
  ${EndIf}
  DeleteRegKey HKCU "${OWN_KEY}"
SectionEnd
