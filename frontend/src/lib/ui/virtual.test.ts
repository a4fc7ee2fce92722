import { describe, expect, it } from 'vitest';
import { VirtualLayout } from './virtual';

describe('VirtualLayout', () => {
  it('uses measured heights and the estimate for the rest', () => {
    const l = new VirtualLayout(10);
    expect(l.measure('b', 30)).toBe(true);
    expect(l.measure('b', 30)).toBe(false);
    expect(l.measure('c', 0)).toBe(false);
    expect([...l.offsets(['a', 'b', 'c'])]).toEqual([0, 10, 40, 50]);
  });

  it('renders only the rows in view plus overscan', () => {
    const l = new VirtualLayout(20);
    const keys = Array.from({ length: 100_000 }, (_, i) => String(i));
    const off = l.offsets(keys);
    const [s, e] = VirtualLayout.range(off, 20 * 5000, 200, 3, 1);
    expect(s).toBe(4997);
    expect(e).toBe(5013);
  });

  it('renders a minimum when the viewport has no height yet', () => {
    const l = new VirtualLayout(20);
    const off = l.offsets(Array.from({ length: 500 }, (_, i) => String(i)));
    expect(VirtualLayout.range(off, 0, 0, 0, 60)).toEqual([0, 60]);
    expect(VirtualLayout.range(l.offsets([]), 0, 100, 2, 60)).toEqual([0, 0]);
  });

  it('prunes heights of rows that left the list', () => {
    const l = new VirtualLayout(10);
    for (let i = 0; i < 100; i++) l.measure(String(i), 50);
    l.prune(['0', '9']);
    expect([...l.offsets(['0', '9', '5'])]).toEqual([0, 50, 100, 110]);
  });
});
