import { describe, expect, it } from 'vitest';
import { render, screen, fireEvent, waitFor } from '@testing-library/svelte';
import { StubBackend } from '../backend/stub';
import { taskView } from '../backend/stub-data';
import { callError, defaultSettings } from '../backend/goldens';
import type { ExecutorView, Settings } from '../backend/types';
import { TaskStore } from './tasks.svelte';
import { SettingsStore } from '../settings/settings.svelte';
import NewTaskForm from './NewTaskForm.svelte';
import { whereItRuns } from './executor';

const prod: ExecutorView = { cluster: true, default: 'local', context: 'prod', namespace: 'agents' };
const refusal = callError('create: in a cluster the settings do not name');

/** A form over settings whose executor view is `view()` at each load; Create refuses a cluster task while the view names none. */
function setup(view: () => ExecutorView) {
  const settingsNow = (): Settings => ({ ...defaultSettings(), executor: view() });
  const b = new StubBackend({
    'SettingsService.Get': () => ({ saved: true, errors: [], settings: settingsNow() }),
    'TaskService.List': () => [],
    'TaskService.Create': (input) => {
      if (input.executor === 'kubernetes' && !view().cluster) throw new Error(refusal);
      return taskView({ id: 'n1', prompt: input.prompt });
    },
  });
  render(NewTaskForm, { store: new TaskStore(b), settings: new SettingsStore(b) });
  return { b, prompt: screen.getByRole('textbox', { name: /prompt/i }) };
}

const choice = () => screen.queryByRole('group', { name: 'Where it runs' });

describe('NewTaskForm: where the task runs', () => {
  it('offers no choice while the settings name no cluster, and sends none', async () => {
    const { b, prompt } = setup(() => ({ cluster: false, default: 'local', context: '', namespace: '' }));
    await waitFor(() => expect(b.count('SettingsService.Get')).toBe(1));
    expect(choice()).toBeNull();
    await fireEvent.input(prompt, { target: { value: 'Add a README' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Add task' }));
    await waitFor(() => expect(b.count('TaskService.Create')).toBe(1));
    expect(b.argsOf('TaskService.Create')[0][0]).not.toHaveProperty('executor');
  });

  it('offers this machine (chosen) or the named cluster, and sends the choice', async () => {
    const { b, prompt } = setup(() => prod);
    const group = await screen.findByRole('group', { name: 'Where it runs' });
    const local = screen.getByRole('radio', { name: 'This machine' }) as HTMLInputElement;
    const cluster = screen.getByRole('radio', { name: /The cluster/ }) as HTMLInputElement;
    expect(local.checked).toBe(true);
    expect(group.textContent).toMatch('a Kubernetes Job: namespace agents, context prod');
    await fireEvent.input(prompt, { target: { value: 'one' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Add task' }));
    await waitFor(() => expect(b.count('TaskService.Create')).toBe(1));
    await fireEvent.click(cluster);
    expect(cluster.checked).toBe(true);
    await fireEvent.input(prompt, { target: { value: 'two' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Add task' }));
    await waitFor(() => expect(b.count('TaskService.Create')).toBe(2));
    expect(b.argsOf('TaskService.Create').map((a) => a[0].executor)).toEqual(['local', 'kubernetes']);
  });

  it('starts on the cluster when the settings send tasks there', async () => {
    setup(() => ({ ...prod, default: 'kubernetes', context: '' }));
    const cluster = (await screen.findByRole('radio', { name: /The cluster/ })) as HTMLInputElement;
    expect(cluster.checked).toBe(true);
    expect(choice()?.textContent).toMatch("namespace agents, the kubeconfig's current context");
  });

  it("says Go's line when the cluster left the settings meanwhile, and stops offering it", async () => {
    let view = prod;
    const { b, prompt } = setup(() => view);
    await fireEvent.click(await screen.findByRole('radio', { name: /The cluster/ }));
    view = { cluster: false, default: 'local', context: '', namespace: '' };
    await fireEvent.input(prompt, { target: { value: 'too late' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Add task' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(refusal));
    await waitFor(() => expect(choice()).toBeNull());
    expect((prompt as HTMLTextAreaElement).value).toBe('too late');
    expect(b.count('TaskService.Create')).toBe(1);
  });
});

describe('whereItRuns', () => {
  it('says where a task runs: its choice, else the settings default when a cluster is configured', () => {
    expect(whereItRuns('kubernetes', prod)).toBe('Runs in the cluster: a Kubernetes Job (namespace agents, context prod).');
    expect(whereItRuns('kubernetes', null)).toBe('Runs in the cluster: a Kubernetes Job.');
    expect(whereItRuns('local', prod)).toBe('Runs on this machine.');
    expect(whereItRuns(undefined, prod)).toBe("Runs on this machine (the settings' default).");
    expect(whereItRuns(undefined, { ...prod, default: 'kubernetes' })).toBe("Runs in the cluster (the settings' default): a Kubernetes Job (namespace agents, context prod).");
    expect(whereItRuns(undefined, { cluster: false, default: 'local', context: '', namespace: '' })).toBe('');
  });
});
