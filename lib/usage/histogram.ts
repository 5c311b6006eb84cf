// The reply latency histogram of the usage rollups (docs/api.md, Usage): fixed, log-spaced bucket
// bounds (each about 1.41 times the last, 5 ms to about 4 minutes), so that the histograms of any set
// of hours add up bucket by bucket and a percentile is read from the sum. Browser-safe: no imports.

/** Upper bounds (inclusive, milliseconds) of the buckets; one more bucket holds everything above the last. */
export const LATENCY_BOUNDS_MS: readonly number[] = Array.from({ length: 32 }, (_, i) => Math.round(5 * 2 ** (i / 2)));

/** Buckets of a histogram: the bounds' and the overflow bucket. */
export const LATENCY_BUCKETS = LATENCY_BOUNDS_MS.length + 1;

/** The bucket of a latency: the number of bounds below it (the SQL of the backfill counts the same way). */
export function latencyBucket(ms: number): number {
  let i = 0;
  while (i < LATENCY_BOUNDS_MS.length && LATENCY_BOUNDS_MS[i]! < ms) i++;
  return i;
}

/** `a + b`, bucket by bucket (a missing bucket counts 0). */
export function addBuckets(a: readonly number[], b: readonly number[]): number[] {
  return Array.from({ length: LATENCY_BUCKETS }, (_, i) => (a[i] ?? 0) + (b[i] ?? 0));
}

/**
 * The `q` quantile (0..1) of a histogram, as the upper bound of the bucket it falls in (an estimate
 * at most one bucket, about 41 %, above the truth); null for an empty histogram. The overflow bucket
 * answers the last bound.
 */
export function latencyQuantile(buckets: readonly number[], q: number): number | null {
  const total = buckets.reduce((s, n) => s + n, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (let i = 0; i < buckets.length; i++) {
    seen += buckets[i] ?? 0;
    if (seen >= rank) return LATENCY_BOUNDS_MS[Math.min(i, LATENCY_BOUNDS_MS.length - 1)]!;
  }
  return LATENCY_BOUNDS_MS[LATENCY_BOUNDS_MS.length - 1]!;
}
