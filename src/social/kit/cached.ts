/**
 * A value loaded on first use and kept for `ttlMs`; a failed load is not
 * kept, so the next call tries again (a provider that was down at first use
 * does not stay broken).
 */
export function cachedFor<T>(ttlMs: number, load: () => Promise<T>): () => Promise<T> {
  let entry: { expiresAt: number; value: Promise<T> } | null = null;
  return () => {
    const now = Date.now();
    if (entry && entry.expiresAt > now) return entry.value;
    const value = load();
    const current = { expiresAt: now + ttlMs, value };
    entry = current;
    value.catch(() => {
      if (entry === current) entry = null;
    });
    return value;
  };
}
