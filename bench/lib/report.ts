/** Percentile of already sorted samples (nearest rank). */
export function percentile(sortedSamples: number[], fraction: number): number {
  if (sortedSamples.length === 0) return Number.NaN;
  const rank = Math.ceil(fraction * sortedSamples.length) - 1;
  return sortedSamples[Math.min(sortedSamples.length - 1, Math.max(0, rank))] as number;
}

export const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

export const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

/** A Markdown table, so a run's output can go into docs/benchmarks.md as it is. */
export function markdownTable(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
