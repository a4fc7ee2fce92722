import { describe, expect, it } from 'vitest';
import { StubBackend } from '../backend/stub';
import { taskView } from '../backend/stub-data';
import { callOutcome, duplicateImport } from '../backend/goldens';
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
    // What Go answers: the import's notes, then the refusal of the same file (naming the first copy).
    const { notes } = callOutcome('import: unknown keys are kept and noted').ok as { notes: string[] };
    const dup = duplicateImport('2025-10-03-retry-flaky-upload');
    const first = taskView({ id: dup.task_id, title: 'Retry flaky uploads', status: 'done' });
    const b = new StubBackend({ 'TaskService.List': () => [], 'TaskService.Import': () => ({ task: first, notes }) });
    const s = new TaskStore(b);
    const got = await s.importMarkdown(earlier);
    expect(got.task.title).toBe('Retry flaky uploads');
    expect(got.notes).toEqual(['unknown key "assignee" kept']);
    b.on('TaskService.Import', (_md, again) => {
      if (!again) throw new Error(dup.message);
      return { task: taskView({ id: 'copy2', title: 'Retry flaky uploads', status: 'done' }), notes };
    });
    await expect(s.importMarkdown(earlier)).rejects.toThrow(
      `Task "2025-10-03-retry-flaky-upload" was already imported (as ${got.task.id}); nothing changed: import it again (--again) to make a second copy.`,
    );
    const again = await s.importMarkdown(earlier, true);
    expect(again.task.id).not.toBe(got.task.id);
    expect(b.argsOf('TaskService.Import').map((a) => a[1])).toEqual([false, false, true]);
    expect(b.argsOf('TaskService.Import').every((a) => a[0] === earlier)).toBe(true);
  });
});
