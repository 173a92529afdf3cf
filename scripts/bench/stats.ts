/** Median and p95 by nearest rank, in the unit given. */
export function summarize(samples: number[]): { n: number; median: number; p95: number; max: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? NaN;
  return { n: sorted.length, median: rank(0.5), p95: rank(0.95), max: sorted.at(-1) ?? NaN };
}

/**
 * `value` with `digits` decimals, or with more where that many would put it on the wrong side of
 * `budget` (a median of 5.004 against "≤ 5" prints 5.004, not 5.00 beside OVER).
 */
function shown(value: number, digits: number, budget?: number): string {
  let text = value.toFixed(digits);
  if (budget === undefined) return text;
  while (Number(text) <= budget !== value <= budget && digits < 12) text = value.toFixed(++digits);
  return text;
}

/** `value` in ms; given the budget it is compared with, with the decimals that show the verdict. */
export function ms(value: number, budget?: number): string {
  return `${shown(value, 2, budget)} ms`;
}

export function verdict(ok: boolean): string {
  return ok ? "within budget" : "OVER BUDGET";
}

/** One measured figure against its budget, for the table `npm run bench` ends with. */
export type Figure = {
  /** Which issue's figures it belongs to (the table groups by it). */
  group: string;
  figure: string;
  measured: string;
  budget: string;
  ok: boolean;
};

/** The group of issue 15's figures (scale.ts, durability.ts). */
export const ISSUE_15 = "Issue 15: embedded backend on SQLite (standalone backend process)";

const figures: Figure[] = [];

/** Adds a figure to the closing table; returns the verdict word for the line printed now. */
export function recordFigure(figure: Figure): string {
  figures.push(figure);
  return verdict(figure.ok);
}

/**
 * Records a time against its budget ("≤ `budget` ms"), printed with the decimals that show the
 * verdict; returns the verdict word.
 */
export function recordMsFigure(group: string, figure: string, value: number, budget: number): string {
  return recordFigure({
    group,
    figure,
    measured: ms(value, budget),
    budget: `≤ ${budget} ms`,
    ok: value <= budget,
  });
}

/** `a / b` as "×1.23"; given the budget it is compared with, with the decimals that show the verdict. */
export function ratio(value: number, budget?: number): string {
  return `×${shown(value, 2, budget)}`;
}

/** The table of every recorded figure with PASS or OVER, grouped in the order first recorded. */
export function printFigures(): void {
  const groups = [...new Set(figures.map((figure) => figure.group))];
  const width = {
    figure: Math.max(6, ...figures.map((f) => f.figure.length)),
    measured: Math.max(8, ...figures.map((f) => f.measured.length)),
    budget: Math.max(6, ...figures.map((f) => f.budget.length)),
  };
  const line = (figure: string, measured: string, budget: string, result: string) =>
    `| ${figure.padEnd(width.figure)} | ${measured.padEnd(width.measured)} | ${budget.padEnd(width.budget)} | ${result.padEnd(4)} |`;
  const rule = `|${"-".repeat(width.figure + 2)}|${"-".repeat(width.measured + 2)}|${"-".repeat(width.budget + 2)}|------|`;
  for (const group of groups) {
    console.log(`\n${group}`);
    console.log(line("figure", "measured", "budget", ""));
    console.log(rule);
    for (const figure of figures.filter((f) => f.group === group)) {
      console.log(line(figure.figure, figure.measured, figure.budget, figure.ok ? "PASS" : "OVER"));
    }
  }
  const over = figures.filter((figure) => !figure.ok).length;
  console.log(`\n${figures.length} figures, ${figures.length - over} within budget, ${over} over budget.`);
}
