import type { Backend } from '../backend/backend';
import { errorMessage } from '../backend/backend';
import { run } from '../busy';
import { EVENT_NAMES, type Command, type CommandInput } from '../backend/types';

/** Command templates: list, save, delete; reloads on `commands:changed`. */
export class CommandStore {
  list = $state<Command[]>([]);
  error = $state('');

  constructor(private readonly backend: Backend) {}

  subscribe(): () => void {
    return this.backend.listen(EVENT_NAMES.commandsChanged, () => void this.load());
  }

  async load(): Promise<void> {
    const r = await run(this, () => this.backend.invoke('CommandService.List'), { fail: 'Could not load commands' });
    if (r.ok) this.list = r.value ?? [];
  }

  /** Saves a command; throws the readable message when refused. */
  async save(input: CommandInput): Promise<Command> {
    if (!input.name.trim()) throw new Error('Give the command a name.');
    if (!input.body.trim()) throw new Error('Write the instruction text.');
    try {
      const c = await this.backend.invoke('CommandService.Save', input);
      await this.load();
      return c;
    } catch (e) {
      throw new Error(errorMessage(e));
    }
  }

  async remove(id: string): Promise<void> {
    const r = await run(this, () => this.backend.invoke('CommandService.Delete', id));
    if (r.ok) await this.load();
  }
}
