import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import FileButton from './FileButton.svelte';

describe('FileButton', () => {
  it('is a labelled file input under our own words, and passes the picked files on', async () => {
    const onchange = vi.fn();
    const { container } = render(FileButton, { label: 'Add files…', name: 'Add attachments', multiple: true, onchange });
    const input = screen.getByLabelText('Add attachments') as HTMLInputElement;
    expect(input.type).toBe('file');
    expect(input.multiple).toBe(true);
    expect(container.querySelector('label')!.textContent!.trim()).toBe('Add files…');
    await fireEvent.change(input);
    expect(onchange).toHaveBeenCalledOnce();
  });
});
