import { describe, expect, it } from 'vitest';
import type { ChangeRequest } from '../backend/review-api';
import { sendBackLabel, sentNotice } from './sendback';

const req = (comments: number, drops: number, general = ''): ChangeRequest => ({
  general,
  comments: Array.from({ length: comments }, (_, i) => ({ file: 'a.go', line: i + 1, hunk: `@@ -${i} +${i} @@\n`, text: 'why?' })),
  drops: Array.from({ length: drops }, (_, i) => ({ file: 'b.go', hunk: `@@ -${i} +${i} @@\n` })),
});

describe('send back words', () => {
  it('counts comments and drops with their plurals, naming only what is there', () => {
    expect(sendBackLabel(req(1, 0))).toBe('Send back (1 comment)');
    expect(sendBackLabel(req(2, 1))).toBe('Send back (2 comments and 1 dropped hunk)');
    expect(sendBackLabel(req(0, 0, 'Redo it'))).toBe('Send back');
  });

  it('says what the fix run gives the developer', () => {
    expect(sentNotice(1, req(1, 0))).toBe('Fix run 1 queued: the developer gets your 1 comment.');
    expect(sentNotice(2, req(0, 1, 'x'))).toBe('Fix run 2 queued: the developer gets your general comment, after 1 dropped hunk is reverted.');
    expect(sentNotice(3, req(0, 2))).toBe('Fix run 3 queued: the developer runs again, after 2 dropped hunks are reverted.');
  });
});
