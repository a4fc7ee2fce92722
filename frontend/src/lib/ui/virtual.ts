/** Row keys: numbers are cheapest (no string hashing per lookup). */
export type Key = string | number;

/** Layout maths of a virtual list with measured, variable row heights. */
export class VirtualLayout {
  private heights = new Map<Key, number>();

  constructor(public estimate: number) {}

  /** Records a measured height; returns true when it changed. */
  measure(key: Key, h: number): boolean {
    if (h <= 0 || this.heights.get(key) === h) return false;
    this.heights.set(key, h);
    return true;
  }

  /** Forgets keys not in `keep` so memory stays bounded with the list. */
  prune(keys: Key[]): void {
    if (this.heights.size <= keys.length * 2 + 64) return;
    const keep = new Set(keys);
    for (const k of this.heights.keys()) if (!keep.has(k)) this.heights.delete(k);
  }

  /** Cumulative offsets: offsets[i] is the top of row i, offsets[n] the total height. */
  offsets(keys: Key[]): Float64Array {
    const out = new Float64Array(keys.length + 1);
    for (let i = 0; i < keys.length; i++) out[i + 1] = out[i] + (this.heights.get(keys[i]) ?? this.estimate);
    return out;
  }

  /** The [start, end) rows to render for a viewport, with `overscan` rows either side. */
  static range(offsets: Float64Array, top: number, height: number, overscan: number, minRows: number): [number, number] {
    const n = offsets.length - 1;
    if (n <= 0) return [0, 0];
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (offsets[mid] <= top) lo = mid;
      else hi = mid - 1;
    }
    const start = Math.max(0, lo - overscan);
    let end = lo;
    while (end < n && offsets[end] < top + height) end++;
    end = Math.min(n, Math.max(end + overscan, start + minRows));
    return [start, end];
  }
}
