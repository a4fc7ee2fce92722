import type { TaskDetail, TaskView } from './types';

// The contract says slices are never null, but a Go nil slice marshals as null:
// be lenient at the seam so one missed initialisation cannot blank a screen.

export function normalizeTask<T extends TaskView>(t: T): T {
  return { ...t, labels: t.labels ?? [], questions: t.questions ?? [], title: t.title ?? '', prompt: t.prompt ?? '' };
}

export function normalizeDetail(d: TaskDetail): TaskDetail {
  return {
    ...normalizeTask(d),
    tools: d.tools ?? {},
    attachments: d.attachments ?? [],
    reports: d.reports ?? [],
    injections: d.injections ?? [],
    events: d.events ?? [],
    log: d.log ?? '',
    answers: d.answers ?? '',
    command: d.command ?? '',
    command_text: d.command_text ?? '',
    usage_by_role: d.usage_by_role ?? [],
    usage: d.usage ?? { tokens_in: 0, tokens_out: 0, cost_usd: 0 },
  };
}
