/** Exponential backoff: wait `initialDelayMs` before the first retry, `factor` times longer before each next one. */
export type BackoffPolicy = { initialDelayMs: number; factor: number; maxRetries: number };

/**
 * How long to wait before retry number `retry` (1-based), or null once `maxRetries` are used up.
 * With { 125, 2, 5 }: 125, 250, 500, 1000, 2000 ms, then null.
 */
export function backoffDelayMs(
  retry: number,
  { initialDelayMs, factor, maxRetries }: BackoffPolicy,
): number | null {
  if (!Number.isInteger(retry) || retry < 1 || retry > maxRetries) return null;
  return initialDelayMs * factor ** (retry - 1);
}
