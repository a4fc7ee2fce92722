import { describe, expect, it } from 'vitest';
import { FakeBackend } from '../backend/fake';
import { TaskStore } from './tasks.svelte';

const earlier = `---
id: 2025-10-03-retry-flaky-upload
title: Retry flaky uploads
status: done
completedRuns: 1
assignee: dana
---

## Prompt

Retry the upload up to 3 times.
`;

describe('TaskStore.importMarkdown', () => {
  it('imports a file once, says what it kept, and a second copy only when asked', async () => {
    const b = new FakeBackend({ seed: false });
    const s = new TaskStore(b);
    const first = await s.importMarkdown(earlier);
    expect(first.task.title).toBe('Retry flaky uploads');
    expect(first.notes).toEqual(['unknown key "assignee" kept']);
    await expect(s.importMarkdown(earlier)).rejects.toThrow(
      `Task "2025-10-03-retry-flaky-upload" was already imported (as ${first.task.id}); nothing changed: import it again (--again) to make a second copy.`,
    );
    expect(b.tasks.size).toBe(1);
    const again = await s.importMarkdown(earlier, true);
    expect(again.task.id).not.toBe(first.task.id);
    expect(b.tasks.size).toBe(2);
    expect(b.calls.filter((c) => c.method === 'TaskService.Import').map((c) => c.args[1])).toEqual([false, false, true]);
  });
});
