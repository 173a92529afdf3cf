/** Median and p95 by nearest rank, in the unit given. */
export function summarize(samples: number[]): { n: number; median: number; p95: number; max: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? NaN;
  return { n: sorted.length, median: rank(0.5), p95: rank(0.95), max: sorted.at(-1) ?? NaN };
}

export function ms(value: number): string {
  return `${value.toFixed(2)} ms`;
}

export function verdict(ok: boolean): string {
  return ok ? "within budget" : "OVER BUDGET";
}
