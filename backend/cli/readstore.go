package cli

import (
	"context"
	"os"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/store"
)

// storeOpener opens the data root's database: openStore, or openStoreRead
// for a command that only reads.
type storeOpener func(context.Context) (*store.Store, dataroot.Paths, error)

// openStoreRead opens the data root's database for a command that only
// reads. It opens it as openStore does (creating or upgrading it, recording
// older tasks' working directories), and when that fails because nothing
// can be written there (a full disk, a read-only file system), read-only:
// what exists is read all the same. When that fails too, the first error
// is returned.
func (c *call) openStoreRead(ctx context.Context) (*store.Store, dataroot.Paths, error) {
	s, paths, err := c.openStore(ctx)
	if err == nil {
		return s, paths, nil
	}
	getenv := c.env.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	root, rerr := dataroot.Resolve(c.dataDir, getenv, goos)
	if rerr != nil {
		return nil, paths, err
	}
	paths = dataroot.Paths{Root: root}
	ro, rerr := store.OpenReadOnly(ctx, paths.Database(), store.Options{AttachmentsDir: paths.Attachments()})
	if rerr != nil {
		return nil, paths, err
	}
	return ro, paths, nil
}
