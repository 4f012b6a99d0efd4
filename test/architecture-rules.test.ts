import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';

const run = promisify(execFile);
const CONFIG = resolve('.dependency-cruiser.cjs');
const DEPCRUISE = resolve('node_modules/.bin/depcruise');

/** Runs the committed rules over a small made-up src/ and returns what the lint would print. */
async function violationsOf(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'house-rules-'));
  try {
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'esnext' } }));
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), text);
    }
    const result = await run(DEPCRUISE, ['src', '--config', CONFIG, '--output-type', 'err-long'], {
      cwd: dir,
    }).then(
      ({ stdout }) => stdout,
      (error: { stdout: string }) => error.stdout,
    );
    return result;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('the house rules (.dependency-cruiser.cjs)', () => {
  it('refuses an import up a layer, a folder loop and a reach into another feature, naming the rule and the fix', async () => {
    const printed = await violationsOf({
      'src/orders/orders.service.ts':
        "import { cancelBill } from '../tickets/tickets.service';\nexport const a = cancelBill;\n",
      'src/tickets/tickets.service.ts':
        "import { isActive } from '../orders/order-status';\nexport const cancelBill = isActive;\n",
      'src/orders/order-status.ts': 'export const isActive = true;\n',
      'src/core/clock.ts': "import { a } from '../orders/orders.service';\nexport const b = a;\n",
    });
    assert.match(
      printed,
      /layer-service-not-up: src\/orders\/orders\.service\.ts → src\/tickets\/tickets\.service\.ts/,
    );
    assert.match(printed, /declare a port/);
    assert.match(printed, /no-circular-folders/);
    assert.match(
      printed,
      /only-through-public-module: src\/tickets\/tickets\.service\.ts → src\/orders\/order-status\.ts/,
    );
    assert.match(printed, /core-imports-no-feature: src\/core\/clock\.ts → src\/orders\/orders\.service\.ts/);
  });

  it('lets a feature use a lower one through its public module and schemas', async () => {
    const printed = await violationsOf({
      'src/tickets/tickets.service.ts':
        "import { isActive } from '../orders/orders.api';\nimport { OrderView } from '../orders/orders.schemas';\nexport const a = [isActive, OrderView];\n",
      'src/orders/orders.api.ts': "export { isActive } from './order-status';\n",
      'src/orders/order-status.ts': 'export const isActive = true;\n',
      'src/orders/orders.schemas.ts': 'export const OrderView = {};\n',
    });
    assert.match(printed, /no dependency violations found/);
  });
});
