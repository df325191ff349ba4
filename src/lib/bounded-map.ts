// A Map that keeps at most `max` entries: setting a new key when full drops the oldest one (insertion
// order). For the process's small memos (capabilities, configuration state, peeled objects, verified
// passwords, cached reads), where a forgotten entry only costs a recomputation.
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly max: number) {
    super();
  }

  override set(key: K, value: V): this {
    if (!this.has(key) && this.size >= this.max) this.delete(this.keys().next().value as K);
    return super.set(key, value);
  }
}
