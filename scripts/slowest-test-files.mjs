/**
 * A node:test reporter for `npm test`: the test files that took longest, each with the time its
 * top-level tests took (SLOWEST_FILES of them, 20 by default), then one closing line of counts.
 */
import { relative } from 'node:path';

export default async function* slowestTestFiles(source) {
  const secondsByFile = new Map();
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { data } = event;
    if (data.details.type !== 'suite') {
      if (data.skip !== undefined || data.todo !== undefined) counts.skipped += 1;
      else if (event.type === 'test:pass') counts.passed += 1;
      else counts.failed += 1;
    }
    if (data.nesting !== 0) continue;
    const file = relative(process.cwd(), data.file ?? '(unknown)');
    secondsByFile.set(file, (secondsByFile.get(file) ?? 0) + data.details.duration_ms / 1000);
  }
  const slowest = [...secondsByFile].sort((a, b) => b[1] - a[1]);
  const total = slowest.reduce((sum, [, seconds]) => sum + seconds, 0);
  yield `\nThe slowest of ${slowest.length} test files (${Math.round(total)} s of tests in all, run two files at a time):\n`;
  for (const [file, seconds] of slowest.slice(0, Number(process.env.SLOWEST_FILES ?? 20))) {
    yield `${seconds.toFixed(1).padStart(7)} s  ${file}\n`;
  }
  yield `tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`;
}
