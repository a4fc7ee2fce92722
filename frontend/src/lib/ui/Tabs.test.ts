import { afterEach, describe, expect, it } from 'vitest';
import { createRawSnippet } from 'svelte';
import { render, screen, fireEvent, cleanup } from '@testing-library/svelte';
import Tabs from './Tabs.svelte';

const panel = createRawSnippet(() => ({ render: () => '<p>Panel body</p>' }));
const TABS = [
  { id: 'changes', label: 'Changes' },
  { id: 'leftovers', label: 'Leftovers' },
  { id: 'commits', label: 'Commits' },
];

function setup(selected = 'changes') {
  const picked: string[] = [];
  render(Tabs, { tabs: TABS, selected, label: 'Review view', onselect: (id: string) => picked.push(id), children: panel });
  const tab = (name: string) => screen.getByRole('tab', { name });
  return { picked, tab };
}

describe('Tabs', () => {
  afterEach(cleanup);

  it('marks up a named tab list whose selected tab controls the panel it labels', () => {
    const { tab } = setup('leftovers');
    expect(screen.getByRole('tablist', { name: 'Review view' })).toBeTruthy();
    expect(screen.getAllByRole('tab').map((t) => [t.textContent, t.getAttribute('aria-selected'), t.tabIndex])).toEqual([
      ['Changes', 'false', -1],
      ['Leftovers', 'true', 0],
      ['Commits', 'false', -1],
    ]);
    const p = screen.getByRole('tabpanel', { name: 'Leftovers' });
    expect(p.textContent).toBe('Panel body');
    for (const t of screen.getAllByRole('tab')) expect(t.getAttribute('aria-controls')).toBe(p.id);
  });

  it('moves the selection and the focus with the arrow keys (wrapping), Home and End', async () => {
    const { picked, tab } = setup();
    tab('Changes').focus();
    const press = async (key: string) => {
      await fireEvent.keyDown(document.activeElement!, { key });
      return [document.activeElement?.textContent, screen.getByRole('tab', { selected: true }).textContent];
    };
    expect(await press('ArrowRight')).toEqual(['Leftovers', 'Leftovers']);
    expect(await press('ArrowRight')).toEqual(['Commits', 'Commits']);
    expect(await press('ArrowRight')).toEqual(['Changes', 'Changes']);
    expect(await press('ArrowLeft')).toEqual(['Commits', 'Commits']);
    expect(await press('Home')).toEqual(['Changes', 'Changes']);
    expect(await press('End')).toEqual(['Commits', 'Commits']);
    expect(picked).toEqual(['leftovers', 'commits', 'changes', 'commits', 'changes', 'commits']);
    expect(tab('Commits').tabIndex).toBe(0);
    expect(tab('Changes').tabIndex).toBe(-1);
    expect(screen.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe(tab('Commits').id);
  });

  it('selects on click and ignores other keys', async () => {
    const { picked, tab } = setup();
    await fireEvent.click(tab('Commits'));
    expect(tab('Commits').getAttribute('aria-selected')).toBe('true');
    await fireEvent.keyDown(tab('Commits'), { key: 'ArrowDown' });
    expect(picked).toEqual(['commits']);
  });
});
