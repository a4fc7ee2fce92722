import type { DiffSummary, FilePatch, DiffFile } from './types';

/** A generated diff; task ids containing "big" get 5,000 files. */
export function fakeDiff(taskId: string): DiffSummary {
  const n = taskId.endsWith('-leftovers') ? 3 : taskId.includes('big') ? 5000 : 24;
  const files: DiffFile[] = [];
  for (let i = 0; i < n; i++) {
    const change = i % 11 === 3 ? 'added' : i % 13 === 5 ? 'deleted' : i % 17 === 7 ? 'renamed' : 'modified';
    files.push({
      path: `pkg/module${Math.floor(i / 20)}/file_${i}.go`,
      ...(change === 'renamed' ? { old_path: `pkg/old/file_${i}.go` } : {}),
      change,
      additions: (i * 7) % 120,
      deletions: (i * 3) % 40,
      binary: i % 19 === 9,
    });
  }
  return { task_id: taskId, base: '3f2a9c1', head: '9b8e771', files };
}

export function fakePatch(taskId: string, path: string, force = false): FilePatch {
  const f = fakeDiff(taskId).files.find((x) => x.path === path);
  if (!f) throw new Error(`file not in diff: ${path}`);
  if (f.binary) return { path, patch: '', binary: true, too_large: false, bytes: 2048 };
  if (f.additions > 110 && !force) return { path, patch: '', binary: false, too_large: true, bytes: 250_000 };
  const lines = [`--- a/${f.old_path ?? path}`, `+++ b/${path}`, `@@ -1,${f.deletions + 2} +1,${f.additions + 2} @@`, ' package module'];
  for (let i = 0; i < f.deletions; i++) lines.push(`-\told${i} := ${i}`);
  for (let i = 0; i < f.additions; i++) lines.push(`+\tnew${i} := ${i} // added`);
  lines.push(' }');
  return { path, patch: lines.join('\n') + '\n', binary: false, too_large: false, bytes: lines.join('\n').length };
}
