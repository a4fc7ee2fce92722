import type { Backend } from '../backend/backend';
import { run } from '../busy';
import { EVENT_NAMES } from '../backend/types';
import type { RecentRepository, RepoCheck, SetupStatus } from '../backend/setup-api';

/**
 * The first run (Go: SetupService): what is missing before a task can run,
 * whether the first-launch screen shows, and the repositories the New task
 * form offers. Reloads the repositories on `settings:changed` and
 * `tasks:changed`; the status only when asked (it runs the tools' checks).
 */
export class SetupStore {
  status = $state<SetupStatus | null>(null);
  recent = $state<RecentRepository[]>([]);
  /** The repositories were loaded once (until then the form cannot tell whether a working directory is set). */
  recentLoaded = $state(false);
  /** The first-launch screen is on screen (opened at start, or from Settings). */
  open = $state(false);
  busy = $state(false);
  error = $state('');
  /** The last repository checked through the picker or a recent one (its sentence shown inline). */
  picked = $state<RepoCheck | null>(null);

  /** The settings' working directory ("" none; known once the repositories are loaded). */
  workingDirectory = $derived(this.recent.find((r) => r.working_directory)?.path ?? this.status?.working_directory ?? '');

  private seq = 0;

  constructor(private readonly backend: Backend) {}

  /** Subscribes to the hints that change the repositories; returns the unsubscribe function. */
  subscribe(): () => void {
    const offs = [this.backend.listen(EVENT_NAMES.settingsChanged, () => void this.loadRecent()), this.backend.listen(EVENT_NAMES.tasksChanged, () => void this.loadRecent())];
    return () => offs.forEach((off) => off());
  }

  /**
   * At start: unless the screen was dismissed, checks what is missing and
   * opens the screen when something is. Nothing missing counts as
   * dismissed, so later starts check no tool (Status runs each tool's
   * check, a model request); Settings still reaches the screen.
   */
  async start(): Promise<void> {
    const d = await run(this, () => this.backend.invoke('SetupService.Dismissed'));
    if (d.ok && d.value) return;
    await this.check(true);
    if (this.status?.ready) await this.dismiss();
  }

  /** Checks what is missing; at start (`atStart`) opens the screen when something is and it was not dismissed. */
  async check(atStart = false): Promise<void> {
    const my = ++this.seq;
    const r = await run(this, () => this.backend.invoke('SetupService.Status'), { fail: 'Could not check the setup', flag: 'busy', current: () => my === this.seq });
    if (!r.ok) return;
    this.status = { ...r.value, problems: r.value.problems ?? [], tools: r.value.tools ?? [] };
    if (atStart && !r.value.ready && !r.value.dismissed) this.open = true;
  }

  /** Loads the repositories the New task form offers. */
  async loadRecent(): Promise<void> {
    const r = await run(this, () => this.backend.invoke('SetupService.RecentRepositories'));
    if (!r.ok) return;
    this.recent = r.value ?? [];
    this.recentLoaded = true;
  }

  /** Closes the screen and remembers it (it no longer opens at start). */
  async dismiss(): Promise<void> {
    this.open = false;
    if (this.status?.dismissed) return;
    const r = await run(this, () => this.backend.invoke('SetupService.Dismiss'));
    if (r.ok && this.status) this.status = { ...this.status, dismissed: true };
  }

  /** The native folder picker; resolves to the folder's check (null: cancelled or failed). */
  async pick(): Promise<RepoCheck | null> {
    const r = await run(this, () => this.backend.invoke('SetupService.PickRepository'));
    if (!r.ok || !r.value.path) return null;
    this.picked = r.value;
    return r.value;
  }

  /** Checks a folder as a repository (its sentence when not usable). */
  async checkRepository(path: string): Promise<RepoCheck | null> {
    const r = await run(this, () => this.backend.invoke('SetupService.CheckRepository', path));
    if (!r.ok) return null;
    this.picked = r.value;
    return r.value;
  }

  /** Makes a usable folder the working directory, then checks again; resolves to its check. */
  async use(path: string): Promise<RepoCheck | null> {
    const r = await run(this, () => this.backend.invoke('SetupService.UseRepository', path), { flag: 'busy' });
    if (!r.ok) return null;
    this.picked = r.value;
    if (r.value.usable) {
      await this.loadRecent();
      await this.check();
    }
    return r.value;
  }
}
