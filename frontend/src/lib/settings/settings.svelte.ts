import type { Backend } from '../backend/backend';
import { errorMessage } from '../backend/backend';
import { run } from '../busy';
import { count } from '../words/words';
import { EVENT_NAMES, type BudgetReport, type FieldError, type Settings, type ToolHealth, type UsageSummary } from '../backend/types';

/** The budget scopes the Settings screen edits. */
export const BUDGET_SCOPES = ['task', 'daily', 'monthly'] as const;

/** Settings with every budget scope present (unset: no usd, no tokens), so the form can bind to it. */
export function withBlankBudgets(s: Settings): Settings {
  const out = structuredClone(s);
  out.budgets ??= { task: null, daily: null, monthly: null };
  for (const k of BUDGET_SCOPES) out.budgets[k] ??= { usd: null, tokens: null, mode: 'warn' };
  return out;
}

/** "30000, 120000" → [30000, 120000]; null when a part is not a whole number. */
export function parseList(s: string): number[] | null {
  const parts = s.split(',').map((x) => x.trim()).filter(Boolean);
  if (parts.some((p) => !/^\d+$/.test(p))) return null;
  return parts.map(Number);
}

/** Date as yyyy-mm-dd in UTC. */
export function day(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** The settings form: a draft, field errors from the backend, tool health, models and usage. */
export class SettingsStore {
  draft = $state<Settings | null>(null);
  saved = $state<Settings | null>(null);
  backoff = $state('');
  errors = $state<FieldError[]>([]);
  error = $state('');
  notice = $state('');
  loadError = $state('');
  health = $state<ToolHealth[]>([]);
  testing = $state<Record<string, boolean>>({});
  models = $state<Record<string, string[]>>({});
  usage = $state<UsageSummary | null>(null);
  usageError = $state('');
  range = $state({ from: '', to: '' });
  budget = $state<BudgetReport | null>(null);
  budgetError = $state('');
  budgetNotice = $state('');
  dirty = $derived(!!this.draft && (JSON.stringify(this.draft) !== JSON.stringify(this.saved) || this.backoff !== (this.saved?.retries.backoff_ms ?? []).join(', ')));
  /** The registered tools' names (loadTools), until a health check lists them. */
  toolNames = $state<string[]>([]);
  tools = $derived(this.health.length ? this.health.map((h) => h.tool) : this.toolNames);

  constructor(
    private readonly backend: Backend,
    private readonly now: () => Date = () => new Date(),
  ) {
    const to = this.now();
    this.range = { from: day(new Date(to.getTime() - 13 * 86_400_000)), to: day(to) };
  }

  subscribe(): () => void {
    return this.backend.listen(EVENT_NAMES.settingsChanged, () => {
      if (!this.dirty) void this.load();
    });
  }

  /** The message for a field path (or any nested path under it). */
  errorFor(path: string): string {
    const m = this.errors.find((e) => e.path === path || e.path.startsWith(path + '.'))?.message ?? '';
    return m.charAt(0).toUpperCase() + m.slice(1);
  }

  async load(): Promise<void> {
    const r = await run(this, () => this.backend.invoke('SettingsService.Get'), { fail: 'Could not load settings' });
    if (!r.ok) return;
    this.apply(r.value.settings);
    this.loadError = r.value.load_error ?? '';
  }

  private apply(s: Settings): void {
    s = withBlankBudgets(s);
    this.saved = structuredClone(s);
    this.draft = structuredClone(s);
    this.backoff = s.retries.backoff_ms.join(', ');
  }

  /** Loads the tools' names only: no check runs (see loadHealth). */
  async loadTools(): Promise<void> {
    try {
      this.toolNames = (await this.backend.invoke('SettingsService.Tools')) ?? [];
    } catch {
      this.toolNames = [];
    }
  }

  /** Checks every tool (a version call and a smoke prompt each) and loads their models. */
  async loadHealth(): Promise<void> {
    try {
      this.health = (await this.backend.invoke('SettingsService.ToolHealth')) ?? [];
      for (const h of this.health) void this.loadModels(h.tool);
    } catch (e) {
      // Not through run(): a successful check must not clear another error on the form.
      this.error = `Could not check the tools: ${errorMessage(e)}`;
    }
  }

  async loadModels(tool: string): Promise<void> {
    try {
      this.models[tool] = (await this.backend.invoke('SettingsService.Models', tool)) ?? [];
    } catch {
      this.models[tool] = [];
    }
  }

  async test(tool: string): Promise<void> {
    this.testing[tool] = true;
    try {
      const h = await this.backend.invoke('SettingsService.TestTool', tool);
      this.health = this.health.map((x) => (x.tool === tool ? h : x));
    } catch (e) {
      this.health = this.health.map((x) => (x.tool === tool ? { ...x, authenticated: false, error: errorMessage(e) } : x));
    } finally {
      this.testing[tool] = false;
    }
  }

  async pickDirectory(): Promise<void> {
    if (!this.draft) return;
    const r = await run(this, () => this.backend.invoke('SettingsService.PickDirectory'));
    if (r.ok && r.value && this.draft) this.draft.working_directory = r.value;
  }

  setObserver(tool: string): void {
    if (!this.draft) return;
    this.draft.roles.observer = tool ? { tool, model: this.models[tool]?.[0] ?? '', write: this.draft.roles.observer?.write ?? false } : null;
  }

  /** Moves the tool at index i of the switch order by delta places (-1: up). */
  moveSwitch(i: number, delta: number): void {
    const order = this.draft?.limits?.switch_order;
    const j = i + delta;
    if (!order || i < 0 || i >= order.length || j < 0 || j >= order.length) return;
    [order[i], order[j]] = [order[j], order[i]];
  }

  /** Takes tool out of the switch order: it never switches, nor is switched to. */
  dropSwitch(tool: string): void {
    const lim = this.draft?.limits;
    if (lim) lim.switch_order = lim.switch_order.filter((t) => t !== tool);
  }

  /** Puts tool last in the switch order. */
  addSwitch(tool: string): void {
    const lim = this.draft?.limits;
    if (lim && tool && !lim.switch_order.includes(tool)) lim.switch_order.push(tool);
  }

  /** Saves; on refusal the field errors show in place and nothing is stored. */
  async save(): Promise<boolean> {
    if (!this.draft) return false;
    this.notice = '';
    const backoff = parseList(this.backoff);
    if (backoff === null) {
      this.errors = [{ path: 'retries.backoff_ms', message: 'Delays must be whole milliseconds separated by commas' }];
      return false;
    }
    const s = { ...structuredClone($state.snapshot(this.draft)), retries: { ...this.draft.retries, backoff_ms: backoff } } as Settings;
    const r = await run(this, () => this.backend.invoke('SettingsService.Save', s), { fail: 'Could not save' });
    if (!r.ok) return false;
    this.errors = r.value.errors ?? [];
    if (!r.value.saved) return false;
    this.apply(r.value.settings);
    this.loadError = '';
    this.notice = 'Settings saved.';
    void this.loadBudget();
    return true;
  }

  revert(): void {
    if (this.saved) this.apply(this.saved);
    this.errors = [];
  }

  /** Spend against each budget now, for the progress bars. */
  async loadBudget(): Promise<void> {
    const r = await run(this, () => this.backend.invoke('SettingsService.Budget'), { into: 'budgetError' });
    if (r.ok) this.budget = r.value;
  }

  /** Re-queues the tasks a budget stopped that no cap holds any more. */
  async retryBudget(): Promise<void> {
    const r = await run(this, () => this.backend.invoke('SettingsService.RetryBudgetStopped'), { into: 'budgetError' });
    if (!r.ok) return;
    const n = r.value.retried.length;
    const held = r.value.held.length;
    this.budgetNotice = `${count(n, 'task')} re-queued${held ? `; ${held} still held by a cap` : ''}.`;
    await this.loadBudget();
  }

  async loadUsage(): Promise<void> {
    const r = await run(this, () => this.backend.invoke('SettingsService.Usage', { ...this.range }), { into: 'usageError' });
    if (r.ok) this.usage = r.value;
  }
}
