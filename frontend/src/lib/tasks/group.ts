import type { Status, TaskView } from '../backend/types';
import { byCodeUnits } from '../order';

/** The order status groups appear in: what needs attention first. */
export const GROUP_ORDER: Status[] = ['ongoing', 'actions', 'pending', 'draft', 'failed', 'stopped', 'done', 'accepted', 'rejected', 'archived'];

export const STATUS_LABEL: Record<Status, string> = {
  draft: 'Drafts',
  pending: 'Queue',
  ongoing: 'Running',
  actions: 'Needs answer',
  done: 'Done',
  failed: 'Failed',
  stopped: 'Stopped',
  archived: 'Archived',
  accepted: 'Accepted',
  rejected: 'Rejected',
};

export interface TaskGroup {
  status: Status;
  label: string;
  tasks: TaskView[];
}

/** Run order of the queue: priority high first, then position, then oldest first. */
export function queueOrder(a: TaskView, b: TaskView): number {
  return b.priority - a.priority || a.position - b.position || byCodeUnits(a.created_at, b.created_at) || byCodeUnits(a.id, b.id);
}

/** Newest activity first. */
export function activityOrder(a: TaskView, b: TaskView): number {
  return byCodeUnits(b.updated_at, a.updated_at) || byCodeUnits(b.id, a.id);
}

/** Groups tasks by status in GROUP_ORDER; the queue is in run order, every other group newest activity first. Empty groups are left out. */
export function groupTasks(tasks: TaskView[]): TaskGroup[] {
  const by = new Map<Status, TaskView[]>();
  for (const t of tasks) {
    const list = by.get(t.status);
    if (list) list.push(t);
    else by.set(t.status, [t]);
  }
  const groups: TaskGroup[] = [];
  for (const status of GROUP_ORDER) {
    const list = by.get(status);
    if (!list) continue;
    list.sort(status === 'pending' ? queueOrder : activityOrder);
    groups.push({ status, label: STATUS_LABEL[status], tasks: list });
  }
  return groups;
}

export function countByStatus(tasks: TaskView[]): Record<Status, number> {
  const c = Object.fromEntries(GROUP_ORDER.map((s) => [s, 0])) as Record<Status, number>;
  for (const t of tasks) c[t.status]++;
  return c;
}

/** A title for display: the title, or the prompt's first line. */
export function displayTitle(t: Pick<TaskView, 'title' | 'prompt'>): string {
  const title = t.title.trim();
  if (title) return title;
  const first = t.prompt.trim().split('\n')[0];
  return first.length > 80 ? first.slice(0, 77) + '...' : first;
}

export function allLabels(tasks: TaskView[]): string[] {
  return [...new Set(tasks.flatMap((t) => t.labels))].sort();
}

/** Parses "a, b ,c" into distinct non-empty labels. */
export function parseLabels(s: string): string[] {
  return [...new Set(s.split(',').map((x) => x.trim()).filter(Boolean))];
}

/**
 * Moves `id` to index `to` of the pending queue and returns the new id order and,
 * when the neighbours' priority differs, the priority the moved task must take so
 * the run order (priority first) matches what the user dropped.
 */
export function moveInQueue(queue: TaskView[], id: string, to: number): { ids: string[]; priority?: number } {
  const from = queue.findIndex((t) => t.id === id);
  if (from < 0) return { ids: queue.map((t) => t.id) };
  const list = [...queue];
  const [moved] = list.splice(from, 1);
  const at = Math.max(0, Math.min(to, list.length));
  list.splice(at, 0, moved);
  const before = list[at - 1];
  const after = list[at + 1];
  let priority: number | undefined;
  if (before && before.priority < moved.priority) priority = before.priority;
  else if (after && after.priority > moved.priority) priority = after.priority;
  return { ids: list.map((t) => t.id), priority };
}

/** "3 min ago" style relative time. */
export function ago(iso: string, now: Date = new Date()): string {
  const s = Math.round((now.getTime() - new Date(iso).getTime()) / 1000);
  if (!Number.isFinite(s)) return '';
  if (s < 45) return 'just now';
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86400)} d ago`;
}
