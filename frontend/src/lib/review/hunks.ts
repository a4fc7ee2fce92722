// The review's comment model: comments anchored to lines (or a range, or a
// whole hunk) of a file's diff, dropped hunks, and the request for changes
// built from them. Hunks are named by their 1-based number in the file's
// diff and their "@@" line (worktree.DiffHunk.Index and Header), as the
// backend locates them (also in the diff with whitespace ignored).
import type { ChangeRequest, ReviewComment, ReviewDrop } from '../backend/review-api';

/** A comment of the review being written. */
export interface DraftComment {
  /** Local id (not stored): which thread row and editor it is. */
  id: number;
  file: string;
  /** 1-based hunk number and its "@@" line. */
  index: number;
  header: string;
  /** Which version line and end_line number. */
  side: 'old' | 'new';
  /** First line (0: the whole hunk) and, for a range, the last. */
  line: number;
  end_line?: number;
  text: string;
}

/** A hunk the user drops. */
export interface DraftDrop {
  file: string;
  index: number;
  header: string;
}

/** Key of a hunk: its file and 1-based number. */
export const hunkKey = (file: string, index: number): string => `${file}\u0000${index}`;

/** Where a comment is, for a list: "file.go:12", "file.go:12-14", "file.go old 7", "file.go hunk 2". */
export function anchorLabel(c: Pick<DraftComment, 'file' | 'index' | 'side' | 'line' | 'end_line'>): string {
  const name = c.file.split('/').at(-1);
  if (c.line <= 0) return `${name} hunk ${c.index}`;
  const lines = c.end_line && c.end_line > c.line ? `${c.line}-${c.end_line}` : `${c.line}`;
  return c.side === 'old' ? `${name} old ${lines}` : `${name}:${lines}`;
}

const byAnchor = (a: { file: string; index: number; line?: number }, b: { file: string; index: number; line?: number }): number =>
  a.file < b.file ? -1 : a.file > b.file ? 1 : a.index - b.index || (a.line ?? 0) - (b.line ?? 0);

/** The comment as RequestChanges and SaveDraft take it (text trimmed only for sending). */
export function toReviewComment(c: DraftComment, text = c.text): ReviewComment {
  const out: ReviewComment = { file: c.file, line: c.line, hunk: '', text, index: c.index, header: c.header };
  if (c.line > 0) out.side = c.side;
  if (c.line > 0 && c.end_line && c.end_line > c.line) out.end_line = c.end_line;
  return out;
}

/**
 * Builds the RequestChanges payload: comments with text (trimmed) and dropped
 * hunks, ordered by file, hunk and line. Blank comments are left out.
 */
export function buildChangeRequest(general: string, comments: Iterable<DraftComment>, drops: Iterable<DraftDrop>): ChangeRequest {
  const cs: ReviewComment[] = [...comments]
    .filter((c) => c.text.trim())
    .sort(byAnchor)
    .map((c) => toReviewComment(c, c.text.trim()));
  const ds: ReviewDrop[] = [...drops].sort(byAnchor).map((d) => ({ file: d.file, hunk: '', index: d.index, header: d.header }));
  return { general: general.trim(), comments: cs, drops: ds };
}
