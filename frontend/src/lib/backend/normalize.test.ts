import { describe, expect, it } from 'vitest';
import { normalizeDetail } from './normalize';
import type { TaskDetail } from './types';

describe('normalizeDetail', () => {
  it('turns null slices from Go into empty arrays', () => {
    const d = normalizeDetail({ id: 'x', labels: null, reports: null, events: null, attachments: null, injections: null, tools: null } as unknown as TaskDetail);
    expect(d.labels).toEqual([]);
    expect(d.reports).toEqual([]);
    expect(d.events).toEqual([]);
    expect(d.tools).toEqual({});
    expect(d.log).toBe('');
  });
});
