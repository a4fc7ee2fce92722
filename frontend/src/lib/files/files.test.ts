import { describe, expect, it } from 'vitest';
import { formatSize, readAttachment, toBase64 } from './files';

describe('files', () => {
  it('encodes bytes as base64, also past one chunk', () => {
    expect(toBase64(new TextEncoder().encode('hello').buffer)).toBe('aGVsbG8=');
    const big = new Uint8Array(0x8000 * 2 + 3).fill(0xff);
    expect(atob(toBase64(big.buffer)).length).toBe(big.length);
  });

  it('reads a picked file', async () => {
    const f = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'shot.png', { type: 'image/png' });
    expect(await readAttachment(f)).toEqual({ name: 'shot.png', data_base64: 'iVBORw==' });
  });

  it('says sizes as the prompts do', () => {
    expect(formatSize(12)).toBe('12 bytes');
    expect(formatSize(2048)).toBe('2.0 KiB');
    expect(formatSize(3 * 1024 * 1024 + 200_000)).toBe('3.2 MiB');
  });
});
