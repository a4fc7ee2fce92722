// SettingsService and CommandService: settings, tools, usage and budgets,
// and the command templates (Go: app/settings.go, app/commands.go).
import type { BudgetReport, BudgetRetryResult, Command, CommandInput, SaveSettingsResult, Settings, ToolHealth, UsageRange, UsageSummary } from './types';

export interface SettingsApi {
  'SettingsService.Get': () => Promise<SaveSettingsResult>;
  'SettingsService.Save': (settings: Settings) => Promise<SaveSettingsResult>;
  'SettingsService.PickDirectory': () => Promise<string>;
  'SettingsService.Tools': () => Promise<string[]>;
  'SettingsService.ToolHealth': () => Promise<ToolHealth[]>;
  'SettingsService.TestTool': (tool: string) => Promise<ToolHealth>;
  'SettingsService.Models': (tool: string) => Promise<string[]>;
  'SettingsService.Usage': (range: UsageRange) => Promise<UsageSummary>;
  'SettingsService.Budget': () => Promise<BudgetReport>;
  'SettingsService.RetryBudgetStopped': () => Promise<BudgetRetryResult>;
  /** The Review screen's diff layout (settings ui.diffView): "unified" or "split". */
  'SettingsService.DiffView': () => Promise<string>;
  'SettingsService.SetDiffView': (layout: 'unified' | 'split') => Promise<string>;
}

export interface CommandApi {
  'CommandService.List': () => Promise<Command[]>;
  'CommandService.Save': (input: CommandInput) => Promise<Command>;
  'CommandService.Delete': (id: string) => Promise<void>;
}
