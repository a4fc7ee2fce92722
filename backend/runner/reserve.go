package runner

import (
	"fmt"
	"os"
)

// DefaultReserveSize is the size of the disk reserve: room for the few
// database pages one outcome record writes, many times over.
const DefaultReserveSize = 1 << 20

// Reserve is a file of spare bytes kept in the data root. When the disk
// fills up while a task runs, so that its outcome cannot be recorded, the
// runner deletes the reserve to make room for that one record (the task is
// recorded as failed, saying why) instead of leaving it ongoing. It is
// written again the next time the runner starts.
type Reserve struct {
	path string
	size int64
}

// NewReserve returns the reserve at path of size bytes.
func NewReserve(path string, size int64) *Reserve { return &Reserve{path: path, size: size} }

// Ensure writes the reserve when it is missing or short. The bytes are
// written, not seeked over, so the file system allocates them. On a full
// disk it fails and leaves no partial file.
func (r *Reserve) Ensure() error {
	if fi, err := os.Stat(r.path); err == nil && fi.Mode().IsRegular() && fi.Size() >= r.size {
		return nil
	}
	f, err := os.OpenFile(r.path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("disk reserve: %w", err)
	}
	buf := make([]byte, 64<<10)
	for n := int64(0); n < r.size; n += int64(len(buf)) {
		if _, err = f.Write(buf[:min(int64(len(buf)), r.size-n)]); err != nil {
			break
		}
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(r.path)
		return fmt.Errorf("disk reserve: %w", err)
	}
	return nil
}

// Release deletes the reserve, reporting whether there was one to free.
func (r *Reserve) Release() bool {
	return os.Remove(r.path) == nil
}
