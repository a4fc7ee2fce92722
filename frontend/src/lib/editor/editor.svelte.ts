import type { Backend } from '../backend/backend';
import { run } from '../busy';
import { EVENT_NAMES, ROLES, type Report, type Role, type TaskDetail, type TaskUpdate, type ToolChoice } from '../backend/types';
import { parseLabels } from '../tasks/group';
import { normalizeDetail } from '../backend/normalize';

export interface Draft {
  title: string;
  prompt: string;
  labels: string;
  priority: string;
  runs: string;
  base: string;
  command: string;
  tools: Record<Role, ToolChoice>;
}

export interface ReportGroup {
  iteration: number;
  role: Report['role'];
  reports: Report[];
}

/** Pipeline order of the report groups: the verification gate runs after the developer. */
const REPORT_ORDER: Report['role'][] = ['planner', 'refinement', 'developer', 'verify', 'observer', 'reviewer'];

/** Groups reports by iteration, then role in pipeline order; rounds ascending. */
export function groupReports(reports: Report[]): ReportGroup[] {
  const out: ReportGroup[] = [];
  const order = (r: Report) => REPORT_ORDER.indexOf(r.role);
  const sorted = [...reports].sort((a, b) => a.iteration - b.iteration || order(a) - order(b) || a.round - b.round);
  for (const r of sorted) {
    const last = out.at(-1);
    if (last && last.iteration === r.iteration && last.role === r.role) last.reports.push(r);
    else out.push({ iteration: r.iteration, role: r.role, reports: [r] });
  }
  return out;
}

export function draftOf(t: TaskDetail): Draft {
  const tools = Object.fromEntries(ROLES.map((r) => [r, { tool: t.tools[r]?.tool ?? '', model: t.tools[r]?.model ?? '' }])) as Record<Role, ToolChoice>;
  return { title: t.title, prompt: t.prompt, labels: t.labels.join(', '), priority: String(t.priority), runs: String(t.runs), base: t.base, command: t.command, tools };
}

/** Checks a draft; returns the update to send or a readable problem. */
export function toUpdate(d: Draft): TaskUpdate | string {
  if (!d.prompt.trim()) return 'The prompt cannot be empty.';
  if (!/^-?\d+$/.test(d.priority.trim())) return 'Priority must be a whole number.';
  if (!/^\d+$/.test(d.runs.trim()) || Number(d.runs) < 1) return 'Runs must be a whole number of at least 1.';
  const tools: TaskUpdate['tools'] = {};
  for (const r of ROLES) if (d.tools[r].tool) tools[r] = { tool: d.tools[r].tool, model: d.tools[r].model };
  return { title: d.title.trim(), prompt: d.prompt, labels: parseLabels(d.labels), priority: Number(d.priority), runs: Number(d.runs), base: d.base.trim(), command: d.command, tools };
}

/** One task opened in the editor: its detail, an editable draft and the task actions. */
export class EditorStore {
  task = $state<TaskDetail | null>(null);
  draft = $state<Draft | null>(null);
  error = $state('');
  notice = $state('');
  busy = $state(false);
  readOnly = $derived(this.task?.status === 'ongoing');
  dirty = $derived(!!this.task && !!this.draft && JSON.stringify(draftOf(this.task)) !== JSON.stringify(this.draft));
  reports = $derived(groupReports(this.task?.reports ?? []));

  constructor(
    private readonly backend: Backend,
    readonly id: string,
  ) {}

  subscribe(): () => void {
    return this.backend.listen(EVENT_NAMES.tasksChanged, () => void this.load(false));
  }

  /** Loads the task; keeps the user's unsaved edits unless `reset`. */
  async load(reset = true): Promise<void> {
    const r = await run(this, () => this.backend.invoke('TaskService.Get', this.id));
    if (!r.ok) return;
    const t = normalizeDetail(r.value);
    const keep = !reset && this.dirty;
    this.task = t;
    if (!keep) this.draft = draftOf(t);
  }

  async save(): Promise<boolean> {
    if (!this.draft || this.readOnly) return false;
    const u = toUpdate(this.draft);
    if (typeof u === 'string') {
      this.error = u;
      return false;
    }
    return this.act(async () => {
      await this.backend.invoke('TaskService.Update', this.id, u);
      await this.load(true);
      this.notice = 'Saved.';
    });
  }

  revert(): void {
    if (this.task) this.draft = draftOf(this.task);
    this.error = '';
  }

  retry = () =>
    this.transition('TaskService.Retry', this.task?.status === 'stopped' ? 'Queued again: it resumes at the step that was stopped.' : 'Queued again from the planner.');
  /** Re-queues a failed or stopped task at the developer, keeping the last final plan. */
  retryFromDeveloper = (): Promise<boolean> =>
    this.act(async () => {
      await this.backend.invoke('TaskService.RetryFrom', this.id, 'developer');
      await this.load(true);
      this.notice = 'Queued again from the developer, with the last final plan.';
    });
  archive = () => this.transition('TaskService.Archive', 'Archived.');
  unarchive = () => this.transition('TaskService.Unarchive', 'Restored from the archive.');

  private transition(m: 'TaskService.Retry' | 'TaskService.Archive' | 'TaskService.Unarchive', notice: string): Promise<boolean> {
    return this.act(async () => {
      await this.backend.invoke(m, this.id);
      await this.load(true);
      this.notice = notice;
    });
  }

  async remove(deleteBranches: boolean): Promise<boolean> {
    return this.act(() => this.backend.invoke('TaskService.Delete', this.id, { delete_branches: deleteBranches }));
  }

  async exportMarkdown(): Promise<string | null> {
    this.notice = '';
    const r = await run(this, () => this.backend.invoke('TaskService.Export', this.id), { flag: 'busy' });
    return r.ok ? r.value : null;
  }

  addAttachment(name: string, dataBase64: string): Promise<boolean> {
    return this.act(async () => {
      const list = await this.backend.invoke('TaskService.AddAttachment', this.id, { name, data_base64: dataBase64 });
      if (this.task) this.task.attachments = list;
    });
  }

  removeAttachment(name: string): Promise<boolean> {
    return this.act(async () => {
      const list = await this.backend.invoke('TaskService.RemoveAttachment', this.id, name);
      if (this.task) this.task.attachments = list;
    });
  }

  /** A task action: clears the last notice, runs `fn` busy; true when it succeeded. */
  private async act(fn: () => Promise<unknown>): Promise<boolean> {
    this.notice = '';
    return (await run(this, fn, { flag: 'busy' })).ok;
  }
}
