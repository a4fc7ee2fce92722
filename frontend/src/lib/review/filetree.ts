// The changed files as a tree of folders, flattened into the rows the
// virtualized file list draws. A folder with a single folder inside is
// drawn as one row ("src/lib"), as forges do.
import type { DiffFile } from '../backend/types';

export interface TreeRow {
  kind: 'dir' | 'file';
  /** The folder's path (no trailing slash) or the file's path. */
  path: string;
  /** What the row shows: the folder's name(s) or the file's base name. */
  name: string;
  depth: number;
  file?: DiffFile;
}

interface Dir {
  dirs: Map<string, Dir>;
  files: DiffFile[];
}

function tree(files: DiffFile[]): Dir {
  const root: Dir = { dirs: new Map(), files: [] };
  for (const f of files) {
    const parts = f.path.split('/');
    let d = root;
    for (const p of parts.slice(0, -1)) {
      let next = d.dirs.get(p);
      if (!next) d.dirs.set(p, (next = { dirs: new Map(), files: [] }));
      d = next;
    }
    d.files.push(f);
  }
  return root;
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The rows of the file tree: folders first, then files, each by name; the
 * rows inside a folder in `collapsed` are left out.
 */
export function treeRows(files: DiffFile[], collapsed: ReadonlySet<string> = new Set()): TreeRow[] {
  const rows: TreeRow[] = [];
  const walk = (d: Dir, prefix: string, depth: number) => {
    for (const name of [...d.dirs.keys()].sort(byName)) {
      let sub = d.dirs.get(name)!;
      let label = name;
      while (sub.files.length === 0 && sub.dirs.size === 1) {
        const [only, inner] = [...sub.dirs.entries()][0];
        label += `/${only}`;
        sub = inner;
      }
      const path = prefix + label;
      rows.push({ kind: 'dir', path, name: label, depth });
      if (!collapsed.has(path)) walk(sub, `${path}/`, depth + 1);
    }
    for (const f of [...d.files].sort((a, b) => byName(a.path, b.path))) rows.push({ kind: 'file', path: f.path, name: f.path.slice(prefix.length), depth, file: f });
  };
  walk(tree(files), '', 0);
  return rows;
}

/** The files in the order the tree shows them (every folder open): the order n/p walk. */
export function treeOrder(files: DiffFile[]): DiffFile[] {
  return treeRows(files).flatMap((r) => (r.file ? [r.file] : []));
}
