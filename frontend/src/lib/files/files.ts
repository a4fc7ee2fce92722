// Files the user picks in the window, as the Go services take them.

import type { AttachmentInput } from '../backend/types';

/** Encodes bytes as base64 in chunks (a large file would overflow the argument list). */
export function toBase64(buf: ArrayBuffer): string {
  const bytes = new Uint8Array(buf);
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** Reads a picked file's bytes (FileReader where Blob.arrayBuffer is missing). */
export function readBytes(f: Blob): Promise<ArrayBuffer> {
  if (typeof f.arrayBuffer === 'function') return f.arrayBuffer();
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(r.result as ArrayBuffer);
    r.onerror = () => reject(r.error ?? new Error('The file could not be read.'));
    r.readAsArrayBuffer(f);
  });
}

/** Reads a picked file into an AttachmentInput. */
export async function readAttachment(f: File): Promise<AttachmentInput> {
  return { name: f.name, data_base64: toBase64(await readBytes(f)) };
}

/** A size for people: "512 bytes", "1.5 KiB", "3.2 MiB" (as the prompts say it). */
export function formatSize(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
}
