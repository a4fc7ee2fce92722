package usererr

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"

	"github.com/boof-runner/boof-runner/backend/userfile"
)

// describeFile words a file the user named that cannot be used, and any
// other error of the system about a path, so that no "open …: permission
// denied" reaches the user raw.
func describeFile(err error) (string, Code, bool) {
	var fe *userfile.Error
	if errors.As(err, &fe) {
		return fileMessage(fe), InvalidInput, true
	}
	var pe *fs.PathError
	if errors.As(err, &pe) && !isDiskFull(pe.Err) {
		return "The path " + pe.Path + " cannot be used: " + systemWords(pe.Err), Other, true
	}
	return "", "", false
}

func isDiskFull(err error) bool { return errors.Is(err, syscall.ENOSPC) }

// fileMessage says what is wrong with a file the user named.
func fileMessage(e *userfile.Error) string {
	if e.Problem == userfile.BadEncoding {
		if e.Path == "" {
			return "The file could not be read (bad encoding)"
		}
		return fmt.Sprintf("The file %q could not be read (bad encoding)", e.Path)
	}
	the := "The " + string(e.Role) + " " + e.Path
	if e.Path == userfile.StdinPath {
		the = "The " + string(e.Role) + " on standard input"
	}
	switch e.Problem {
	case userfile.Missing:
		return the + " does not exist"
	case userfile.Denied:
		return the + " cannot be read: permission denied"
	case userfile.NotRegular:
		msg := the + " is " + kindWords(e.Kind) + ", not a regular file"
		if e.Kind == userfile.Folder {
			msg = the + " is a folder, not a file"
		}
		if e.Kind == userfile.NamedPipe && (e.Role == userfile.TaskFile || e.Role == userfile.CommandFile) {
			msg += "; to read from a pipe, give - and send the text to standard input"
		}
		return msg
	case userfile.Loop:
		return the + " is a symbolic link that loops back on itself"
	case userfile.TooLarge:
		return the + " is larger than the limit of " + byteSize(e.Limit)
	case userfile.Outside:
		return the + " leads outside the folder " + e.Within + " (to " + e.Target + "); only files inside the imported file's folder are attached"
	}
	if e.Err != nil {
		return the + " cannot be read: " + systemWords(e.Err)
	}
	return the + " cannot be read"
}

// kindWords names a path that is not a regular file.
func kindWords(k userfile.Kind) string {
	switch k {
	case userfile.Folder:
		return "a folder"
	case userfile.NamedPipe:
		return "a named pipe"
	case userfile.Device:
		return "a device"
	case userfile.Socket:
		return "a socket"
	case userfile.Symlink:
		return "a symbolic link"
	}
	return "not a file"
}

// systemWords is the system's reason for a failed file operation without
// the operation and path Go puts before it.
func systemWords(err error) string {
	var errno syscall.Errno
	switch {
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	case errors.Is(err, fs.ErrNotExist):
		return "it does not exist"
	case errors.Is(err, syscall.ELOOP):
		return "a symbolic link on the way loops back on itself"
	case errors.Is(err, syscall.EISDIR):
		return "it is a folder"
	case errors.Is(err, syscall.ENOTDIR):
		return "a part of it is a file, not a folder"
	case errors.As(err, &errno):
		return errno.Error()
	}
	return trimPeriod(innerText(err))
}
