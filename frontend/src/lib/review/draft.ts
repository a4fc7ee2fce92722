// The review screen's unsent work as the backend stores it (review.Draft):
// built from the store's state for SaveDraft, and read back from Draft.
import type { AcceptSelection, ReviewDraft } from '../backend/review-api';
import { toReviewComment, type DraftComment, type DraftDrop } from './hunks';

/** The unsent work the screen holds. */
export interface DraftState {
  head: string;
  general: string;
  comments: DraftComment[];
  drops: DraftDrop[];
  picks: Record<string, true | number[]>;
  /** Files marked viewed, with the content hash they had. */
  viewed: Record<string, string>;
}

/** The draft SaveDraft stores for `s`. */
export function toDraft(s: DraftState): ReviewDraft {
  const chosen: AcceptSelection[] = Object.entries(s.picks)
    .filter(([, p]) => p === true || p.length > 0)
    .map(([file, p]) => (p === true ? { file } : { file, hunks: [...p].sort((a, b) => a - b) }));
  return {
    head: s.head,
    general: s.general,
    comments: s.comments.map((c) => toReviewComment(c)),
    drops: s.drops.map((d) => ({ file: d.file, hunk: '', index: d.index, header: d.header })),
    chosen,
    viewed: Object.entries(s.viewed).map(([path, hash]) => ({ path, hash })),
    updated_at: undefined,
    moved: false,
    unviewed: [],
  };
}

/** The state a stored draft restores (ids for its comments from `nextId`), and what Draft reported about it. */
export function fromDraft(d: ReviewDraft, nextId: () => number): DraftState & { moved: boolean; unviewed: string[] } {
  const picks: Record<string, true | number[]> = {};
  for (const c of d.chosen ?? []) picks[c.file] = c.hunks?.length ? [...c.hunks] : true;
  const viewed: Record<string, string> = {};
  for (const v of d.viewed ?? []) viewed[v.path] = v.hash;
  return {
    head: d.head ?? '',
    general: d.general ?? '',
    comments: (d.comments ?? []).map((c) => ({
      id: nextId(),
      file: c.file,
      index: c.index ?? 0,
      header: c.header ?? '',
      side: c.side === 'old' ? 'old' : 'new',
      line: c.line,
      end_line: c.end_line || undefined,
      text: c.text,
    })),
    drops: (d.drops ?? []).map((x) => ({ file: x.file, index: x.index ?? 0, header: x.header ?? '' })),
    picks,
    viewed,
    moved: !!d.moved,
    unviewed: d.unviewed ?? [],
  };
}
