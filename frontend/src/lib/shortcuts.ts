export const SCREENS = ['tasks', 'actions', 'commands', 'settings', 'review', 'merge-queue', 'schedules'] as const;
export type Screen = (typeof SCREENS)[number];

export type Shortcut = { kind: 'screen'; screen: Screen } | { kind: 'new' } | { kind: 'search' } | { kind: 'stop' } | { kind: 'close' };

interface Key {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  /** True when the key was typed into a text field. */
  typing: boolean;
}

/** Maps a key press to an app action (see CONTRACT.md, Keyboard). */
export function shortcutFor(e: Key): Shortcut | null {
  const mod = e.ctrlKey || e.metaKey;
  if (mod && !e.altKey && !e.shiftKey) {
    if (/^[1-9]$/.test(e.key) && Number(e.key) <= SCREENS.length) return { kind: 'screen', screen: SCREENS[Number(e.key) - 1] };
    if (e.key === 'n' || e.key === 'N') return { kind: 'new' };
    if (e.key === 'f' || e.key === 'F') return { kind: 'search' };
    if (e.key === '.') return { kind: 'stop' };
  }
  if (!mod && !e.altKey && !e.typing) {
    if (e.key === '/') return { kind: 'search' };
    if (e.key === 'Escape') return { kind: 'close' };
  }
  return null;
}
