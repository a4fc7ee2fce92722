package atomicfile

import (
	"fmt"
	"os"
)

func syncDir(dir string) error {
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("sync folder: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("sync folder %s: not a folder", dir)
	}
	return nil
}
