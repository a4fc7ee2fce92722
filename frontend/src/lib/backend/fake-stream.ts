import type { FeedItem, OutputBatch, Role } from './types';
import { describeEvent } from '../events/describe';

const ESC = '\x1b[';

/** Produces a realistic endless agent session: text, tool calls and results, with colours in the terminal text. */
export class FakeStream {
  private seq = 0;
  private step = 0;

  constructor(
    readonly taskId: string,
    private readonly role: Role = 'developer',
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Returns the next batch of `n` feed items and their terminal rendering. */
  next(n = 3): OutputBatch {
    const feed: FeedItem[] = [];
    let terminal = '';
    for (let i = 0; i < n; i++) {
      const item = this.item();
      feed.push(item);
      terminal += render(item);
    }
    return { task_id: this.taskId, feed, terminal };
  }

  private item(): FeedItem {
    const s = this.step++;
    const base = { seq: ++this.seq, at: this.now().toISOString(), role: this.role };
    const call = `call_${Math.floor(s / 4)}`;
    switch (s % 4) {
      case 0:
        return { ...base, kind: 'text', data: { text: `Looking at step ${Math.floor(s / 4) + 1}: reading the settings component and its tests.` } };
      case 1:
        return { ...base, kind: 'tool_call', data: { tool: s % 8 === 1 ? 'Bash' : 'Edit', call_id: call, input: s % 8 === 1 ? 'go test ./backend/settings/...' : 'frontend/src/lib/settings/Settings.svelte' } };
      case 2:
        return { ...base, kind: 'tool_result', data: { call_id: call, output: s % 8 === 2 ? 'ok  \tgithub.com/boof-runner/boof-runner/backend/settings\t0.412s' : 'Applied 1 edit (+12 −3).', is_error: false } };
      default:
        return { ...base, kind: 'text', data: { text: 'The change compiles; moving on to the next part.' } };
    }
  }
}

function render(item: FeedItem): string {
  switch (item.kind) {
    case 'tool_call':
      return `${ESC}36m● ${item.data.tool}${ESC}0m(${item.data.input})\r\n`;
    case 'tool_result':
      return `${ESC}90m  └ ${item.data.output}${ESC}0m\r\n`;
    case 'note':
      return item.data.level === 'error' ? `${ESC}31m${item.data.text}${ESC}0m\r\n` : `${item.data.text}\r\n`;
    default:
      return `${describeEvent(item)}\r\n`;
  }
}
