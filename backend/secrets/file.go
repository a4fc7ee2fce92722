package secrets

import (
	"fmt"
	"io"

	"github.com/boof-runner/boof-runner/backend/atomicfile"
	"github.com/boof-runner/boof-runner/backend/userfile"
)

// ScrubFile rewrites the file at path with its secrets redacted, streaming
// it through a Stream (bounded memory whatever its size), and returns how
// many secrets it replaced. A file without secrets is left untouched; one
// with secrets is replaced atomically and durably (atomicfile), keeping its
// mode.
func ScrubFile(path string) (int, error) {
	in, err := userfile.OpenKept(path)
	if err != nil {
		return 0, fmt.Errorf("scrub %s: %w", path, err)
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return 0, fmt.Errorf("scrub %s: %w", path, err)
	}
	tmp, err := atomicfile.Create(path)
	if err != nil {
		return 0, fmt.Errorf("scrub %s: %w", path, err)
	}
	defer tmp.Abort()
	s := NewStream()
	buf := make([]byte, 64<<10)
	for {
		n, rerr := in.Read(buf)
		if n > 0 {
			if _, err := tmp.Write(s.Write(buf[:n])); err != nil {
				return 0, fmt.Errorf("scrub %s: %w", path, err)
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return 0, fmt.Errorf("scrub %s: %w", path, rerr)
		}
	}
	if _, err := tmp.Write(s.Flush()); err != nil {
		return 0, fmt.Errorf("scrub %s: %w", path, err)
	}
	if s.Count() == 0 {
		return 0, nil
	}
	if err := tmp.Chmod(st.Mode().Perm()); err != nil {
		return 0, fmt.Errorf("scrub %s: %w", path, err)
	}
	if err := tmp.Commit(); err != nil {
		return 0, fmt.Errorf("scrub %s: %w", path, err)
	}
	return s.Count(), nil
}
