import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import History from './History.svelte';
import { taskDetail } from '../backend/stub-data';
import type { TaskDetail } from '../backend/types';

describe('History', () => {
  it('renders the stored events from their kinds and payloads', () => {
    const at = '2026-11-30T00:41:00Z';
    const task: TaskDetail = taskDetail({ id: 't1', prompt: 'p', created_at: at });
    task.events.push(
      { at, kind: 'status_changed', data: { from: 'pending', to: 'ongoing', reason: 'claimed' } },
      { at, kind: 'verdict', data: { role: 'observer', iteration: 1, round: 1, verdict: 'APPROVE' } },
      { at, kind: 'injection_applied', data: { injection: 2, step: 'developer', delivery: 'live' } },
      { at, kind: 'from_the_future', data: { x: 1 } },
    );
    render(History, { task });
    expect(screen.getByRole('tab', { name: 'Events (5)' })).toBeTruthy();
    const items = screen.getAllByRole('listitem').map((li) => li.textContent?.replace(/^.*?(?=created|status_changed|verdict|injection_applied|from_the_future)/, ''));
    expect(items).toEqual([
      'created Task created',
      'status_changed Status pending → ongoing: claimed',
      'verdict Observer verdict (round 1): APPROVE',
      "injection_applied Injected prompt delivered live to developer; it is also included in every later step's prompt",
      'from_the_future from the future {"x":1}',
    ]);
  });
});
