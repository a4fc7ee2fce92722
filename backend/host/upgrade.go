package host

import (
	"context"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/secrets"
	"github.com/boof-runner/boof-runner/backend/store"
)

// scrubUpgrade names the one-time pass that scrubs secrets from data
// written before agent output was scrubbed everywhere.
const scrubUpgrade = "scrub-secrets-v1"

// scrubExisting runs the one-time scrub pass over a data root, if it has
// not run yet: stored rows (store.ScrubAgentText) and every raw transcript.
// It logs what it changed in counts, never the values. A failure is logged
// and the pass runs again at the next open.
func scrubExisting(ctx context.Context, st *store.Store, paths dataroot.Paths, log *slog.Logger) {
	done, err := st.UpgradeDone(ctx, scrubUpgrade)
	if err != nil || done {
		if err != nil {
			log.Warn("secrets: cannot read the upgrade marker; the scrub pass is skipped this time", "err", err)
		}
		return
	}
	t0 := time.Now()
	rows, err := st.ScrubAgentText(ctx, secrets.Scrub)
	if err != nil {
		log.Warn("secrets: scrubbing stored rows failed; it is tried again at the next start", "err", err)
		return
	}
	files, redacted, failed := 0, 0, 0
	_ = filepath.WalkDir(paths.Transcripts(), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if !os.IsNotExist(err) {
				failed++
			}
			return nil
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		n, serr := secrets.ScrubFile(path)
		switch {
		case serr != nil:
			failed++
			log.Warn("secrets: cannot scrub a transcript", "path", path, "err", serr)
		case n > 0:
			files++
			redacted += n
		}
		return nil
	})
	log.Info("secrets: scrubbed data written before this version",
		"sections", rows.Sections, "log_lines", rows.LogLines, "events", rows.Events, "tasks", rows.Tasks,
		"transcripts", files, "transcript_secrets", redacted, "took", time.Since(t0).Round(time.Millisecond))
	if failed > 0 {
		log.Warn("secrets: some transcripts could not be scrubbed; the pass runs again at the next start", "failed", failed)
		return
	}
	if err := st.MarkUpgradeDone(ctx, scrubUpgrade); err != nil {
		log.Warn("secrets: cannot record the scrub pass", "err", err)
	}
	if err := st.Checkpoint(ctx); err != nil {
		log.Warn("secrets: cannot checkpoint the database after the scrub pass", "err", err)
	}
}
