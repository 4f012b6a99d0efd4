import assert from 'node:assert/strict';
import { it } from 'node:test';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { billableOrder } from './helpers/checkout-factories';
import { databaseDigest } from './helpers/db-digest';

const UNKNOWN_ID = '3f1c2a7e-8b4d-4c1a-9e2f-5d6b7a8c9d0e';
const GRILL = { name: 'Grill', host: '192.168.1.51', role: 'kitchen', station: 'grill', width: 42 };

function storedPrinters(db: Awaited<ReturnType<typeof buildTestApp>>['db']) {
  return db.selectFrom('printers').selectAll().orderBy('name').execute();
}

describeEachDatabase('printers', (target) => {
  it('adds, lists, changes and removes printers (administrators only)', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { admin, call } = await billableOrder(app, db, [1000]);
    const created = await admin('POST', '/printers', GRILL);
    assert.equal(created.statusCode, 201, created.body);
    const { id, message } = created.json();
    assert.equal(message, 'Printer added successfully');
    const view = {
      id,
      name: 'Grill',
      host: '192.168.1.51',
      port: 9100,
      role: 'kitchen',
      station: 'grill',
      width: 42,
      created_at: '2026-11-22T18:00:00.000Z',
      updated_at: '2026-11-22T18:00:00.000Z',
    };
    assert.deepEqual((await admin('GET', `/printers/${id}`)).json(), view);
    assert.deepEqual((await admin('GET', '/printers')).json(), [view]);

    const receipt = { name: 'Bar', host: 'bar-printer.local', port: 9101, role: 'receipt' };
    const changed = await admin('PUT', `/printers/${id}`, receipt);
    assert.deepEqual(changed.json(), { id, message: 'Printer updated successfully' });
    const [row] = await storedPrinters(db);
    assert.deepEqual(
      [row?.name, row?.host, Number(row?.port), row?.role, row?.station, Number(row?.width)],
      ['Bar', 'bar-printer.local', 9101, 'receipt', null, 48],
    );

    for (const [method, url, body] of [
      ['GET', '/printers'],
      ['GET', `/printers/${id}`],
      ['POST', '/printers', GRILL],
      ['PUT', `/printers/${id}`, GRILL],
      ['DELETE', `/printers/${id}`],
      ['GET', `/printers/${id}/jobs`],
    ] as const) {
      const refused = await call(method, url, body);
      assert.deepEqual(
        [refused.statusCode, refused.json()],
        [403, { message: 'Unauthorized API access' }],
        url,
      );
    }

    assert.deepEqual((await admin('DELETE', `/printers/${id}`)).json(), {
      id,
      message: 'Printer deleted successfully',
    });
    assert.deepEqual(await storedPrinters(db), []);
    assert.equal((await admin('GET', '/printers')).statusCode, 204);
    assert.equal((await admin('GET', `/printers/${id}`)).statusCode, 404);
    assert.equal((await admin('PUT', `/printers/${id}`, GRILL)).statusCode, 404);
    assert.equal((await admin('DELETE', `/printers/${id}`)).statusCode, 404);
    assert.equal((await admin('GET', `/printers/${UNKNOWN_ID}/jobs`)).statusCode, 404);
  });

  it('refuses bad printer bodies and taken names, changing nothing', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { admin } = await billableOrder(app, db, [1000]);
    assert.equal((await admin('POST', '/printers', GRILL)).statusCode, 201);
    const before = await databaseDigest(db);
    const bad: [Record<string, unknown>, string][] = [
      [{ ...GRILL, name: undefined }, 'name'],
      [{ ...GRILL, name: '   ' }, 'name'],
      [{ ...GRILL, host: 'http://printer' }, 'host'],
      [{ ...GRILL, host: 'two words' }, 'host'],
      [{ ...GRILL, host: 'a'.repeat(254) }, 'host'],
      [{ ...GRILL, port: 0 }, 'port'],
      [{ ...GRILL, port: 65536 }, 'port'],
      [{ ...GRILL, port: '9100' }, 'port'],
      [{ ...GRILL, role: 'bar' }, 'role'],
      [{ ...GRILL, width: 40 }, 'width'],
      [{ ...GRILL, station: '' }, 'station'],
      [{ ...GRILL, paper: '80mm' }, 'paper'],
    ];
    for (const [body, field] of bad) {
      const refused = await admin('POST', '/printers', body);
      assert.equal(refused.statusCode, 400, field);
      assert.equal(refused.json().message, 'Validation failed', field);
      assert.ok(
        refused.json().details.some((detail: { field: string }) => detail.field === field),
        `${field}: ${refused.body}`,
      );
    }
    const stationOnReceipt = await admin('POST', '/printers', { ...GRILL, name: 'Till', role: 'receipt' });
    assert.deepEqual(
      [stationOnReceipt.statusCode, stationOnReceipt.json()],
      [400, { message: 'Only kitchen printers have a station' }],
    );
    const taken = await admin('POST', '/printers', { ...GRILL, station: 'fryer' });
    assert.deepEqual(
      [taken.statusCode, taken.json()],
      [409, { message: 'A printer with this name already exists' }],
    );
    assert.deepEqual(await databaseDigest(db), before);
  });
});
