import type { Backend } from '../backend/backend';
import { errorMessage } from '../backend/backend';
import { run } from '../busy';
import { EVENT_NAMES, type CreateTaskInput, type Status, type TaskView } from '../backend/types';
import { normalizeTask } from '../backend/normalize';
import type { IssueTask, IssueTaskInput } from '../backend/forge-api';
import { allLabels, countByStatus, groupTasks, moveInQueue, queueOrder } from './group';

/** The task list: loads through TaskService.List, reloads on `tasks:changed`, and performs list actions. */
export class TaskStore {
  /** Tasks matching search and label (all statuses except archived, or only archived). */
  tasks = $state<TaskView[]>([]);
  status = $state<'' | Status>('');
  search = $state('');
  label = $state('');
  loaded = $state(false);
  error = $state('');
  selectedId = $state<string | null>(null);

  visible = $derived(this.status && this.status !== 'archived' ? this.tasks.filter((t) => t.status === this.status) : this.tasks);
  groups = $derived(groupTasks(this.visible));
  counts = $derived(countByStatus(this.tasks));
  labels = $derived(allLabels(this.tasks));
  queue = $derived(this.tasks.filter((t) => t.status === 'pending').sort(queueOrder));
  selected = $derived(this.tasks.find((t) => t.id === this.selectedId) ?? null);

  private seq = 0;

  constructor(private readonly backend: Backend) {}

  /** Subscribes to change hints (a burst of hints costs one reload); returns the unsubscribe function. */
  subscribe(): () => void {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = this.backend.listen(EVENT_NAMES.tasksChanged, () => {
      if (timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        void this.load();
      }, 25);
    });
    return () => {
      clearTimeout(timer);
      off();
    };
  }

  /** Reloads the list; a slower earlier answer never overwrites a newer one. */
  async load(): Promise<void> {
    const my = ++this.seq;
    const filter = { status: this.status === 'archived' ? 'archived' : '', search: this.search.trim(), label: this.label };
    const r = await run(this, () => this.backend.invoke('TaskService.List', filter), { fail: 'Could not load tasks', current: () => my === this.seq });
    if (r.ok) this.tasks = (r.value ?? []).map(normalizeTask);
    if (my === this.seq) this.loaded = true;
  }

  /** Creates a task and shows it at once; throws the readable message on failure. */
  async create(input: CreateTaskInput): Promise<TaskView> {
    let t: TaskView;
    try {
      t = normalizeTask(await this.backend.invoke('TaskService.Create', input));
    } catch (e) {
      throw new Error(errorMessage(e));
    }
    if (!this.tasks.some((x) => x.id === t.id)) this.tasks = [...this.tasks, t];
    void this.load();
    return t;
  }

  /** Creates a pending task from a GitHub or GitLab issue; throws Go's sentence on failure. */
  async createFromIssue(input: IssueTaskInput): Promise<IssueTask> {
    let t: IssueTask;
    try {
      t = await this.backend.invoke('ForgeService.CreateFromIssue', input);
    } catch (e) {
      throw new Error(errorMessage(e));
    }
    await this.load();
    return t;
  }

  /**
   * Imports a task file (this app's export or the earlier version's); `again`
   * imports a file whose task was imported before as a second copy. Throws
   * the readable message on failure.
   */
  async importMarkdown(md: string, again = false): Promise<{ task: TaskView; notes: string[] }> {
    try {
      const r = await this.backend.invoke('TaskService.Import', md, again);
      await this.load();
      return { task: normalizeTask(r.task), notes: r.notes ?? [] };
    } catch (e) {
      throw new Error(errorMessage(e));
    }
  }

  setFilter(f: { status?: '' | Status; search?: string; label?: string }): void {
    const reload = (f.status !== undefined && (f.status === 'archived') !== (this.status === 'archived')) || (f.search !== undefined && f.search !== this.search) || (f.label !== undefined && f.label !== this.label);
    if (f.status !== undefined) this.status = f.status;
    if (f.search !== undefined) this.search = f.search;
    if (f.label !== undefined) this.label = f.label;
    if (reload) void this.load();
  }

  /** Runs a list action, replacing the row with the answer; on refusal reloads the list and shows why in `error`. */
  private async act(fn: () => Promise<TaskView | void>): Promise<boolean> {
    const r = await run(this, fn);
    if (!r.ok) {
      // The reload clears the error when it succeeds: set the refusal after it.
      await this.load();
      this.error = r.error;
      return false;
    }
    const t = r.value ? normalizeTask(r.value) : undefined;
    if (t) this.tasks = this.tasks.map((x) => (x.id === t.id ? t : x));
    return true;
  }

  setSkip(id: string, skip: boolean): Promise<boolean> {
    return this.act(() => this.backend.invoke('TaskService.SetSkip', id, skip));
  }

  setPriority(id: string, priority: number): Promise<boolean> {
    if (!Number.isInteger(priority)) {
      this.error = 'Priority must be a whole number';
      return Promise.resolve(false);
    }
    return this.act(() => this.backend.invoke('TaskService.SetPriority', id, priority));
  }

  /** Moves a pending task to index `to` of the queue (optimistic, then confirmed by a reload). */
  async move(id: string, to: number): Promise<boolean> {
    const { ids, priority } = moveInQueue(this.queue, id, to);
    const pos = new Map(ids.map((x, i) => [x, i]));
    this.tasks = this.tasks.map((t) => (pos.has(t.id) ? { ...t, position: pos.get(t.id)!, priority: t.id === id && priority !== undefined ? priority : t.priority } : t));
    return this.act(async () => {
      if (priority !== undefined) await this.backend.invoke('TaskService.SetPriority', id, priority);
      await this.backend.invoke('TaskService.Reorder', ids);
    });
  }
}
