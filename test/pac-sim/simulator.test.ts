import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PacSimulator } from './simulator';

type TestContext = { after: (fn: () => Promise<void> | void) => void };

// biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary fields.
type Json = any;

/** Wednesday 25 November 2026, noon in Mexico City. */
const WEDNESDAY_NOON = new Date('2026-11-25T18:00:00Z');
const HOUR = 3_600_000;

async function startSimulator(t: TestContext, options: ConstructorParameters<typeof PacSimulator>[0] = {}) {
  const simulator = new PacSimulator(options);
  const url = await simulator.start();
  t.after(() => simulator.stop());
  simulator.setNow(WEDNESDAY_NOON);
  const headers = { authorization: `Bearer ${simulator.key}`, 'content-type': 'application/json' };
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers,
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: (text === '' ? undefined : JSON.parse(text)) as Json,
    };
  };
  const control = (path: string, body?: unknown) =>
    fetch(`${simulator.origin}/sim${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers,
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
  return { simulator, url, headers, call, control };
}

const taco = (price = 58, quantity = 1) => ({
  quantity,
  product: { description: 'Taco al pastor', product_key: '90101501', price },
});

const receiptBody = (overrides: Record<string, unknown> = {}) => ({
  payment_form: '01',
  items: [
    taco(58, 2),
    {
      quantity: 1,
      discount: 10,
      product: { description: 'Agua de jamaica', product_key: '50202301', price: 35.5 },
    },
  ],
  ...overrides,
});

/** The SAT's test taxpayer, a persona moral in regime 601. */
const COMPANY = {
  legal_name: 'ESCUELA KEMPER URGATE',
  tax_id: 'EKU9003173C9',
  tax_system: '601',
  address: { zip: '42501' },
};

describe('Facturapi simulator', () => {
  it('asks for the Bearer key and answers unknown routes with not_found', async (t) => {
    const { url } = await startSimulator(t);
    const anonymous = await fetch(`${url}/receipts`);
    assert.equal(anonymous.status, 401);
    assert.deepEqual(
      { ...(await anonymous.json()), message: undefined },
      { ok: false, status: 401, code: 'missing_credentials', message: undefined },
    );
    const wrong = await fetch(`${url}/receipts`, { headers: { authorization: 'Bearer sk_test_wrong' } });
    assert.equal((await wrong.json()).code, 'api_key_invalid');
    const unknown = await fetch(`${url}/customers`, { headers: { authorization: 'Bearer sk_test_pac_sim' } });
    assert.equal(unknown.status, 404);
    assert.equal((await unknown.json()).code, 'not_found');
    const garbled = await fetch(`${url}/receipts`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk_test_pac_sim', 'content-type': 'application/json' },
      body: '{"items": [',
    });
    assert.deepEqual([garbled.status, (await garbled.json()).code], [400, 'invalid_json']);
  });

  it('creates, lists, reads and cancels receipts', async (t) => {
    const { call } = await startSimulator(t);
    const created = await call(
      'POST',
      '/receipts',
      receiptBody({ external_id: 'ticket-1', branch: 'Centro' }),
    );
    assert.equal(created.status, 200);
    const receipt = created.body;
    assert.match(receipt.id, /^[0-9a-f]{24}$/);
    assert.equal(receipt.status, 'open');
    assert.equal(receipt.livemode, false);
    assert.equal(receipt.total, 141.5);
    assert.equal(receipt.invoice, null);
    assert.equal(receipt.folio_number, 1);
    assert.equal(receipt.self_invoice_url, `https://factura.space/demo/${receipt.key}`);
    assert.equal(receipt.date, WEDNESDAY_NOON.toISOString());
    // Monthly period, 7 days to self-invoice: November closes first (midnight in Mexico City, UTC−6).
    assert.equal(receipt.expires_at, '2026-12-01T05:59:59.999Z');
    assert.equal((await call('POST', '/receipts', receiptBody())).body.folio_number, 2);

    const older = await call('POST', '/receipts', receiptBody({ date: '2026-11-20T18:00:00.000Z' }));
    assert.equal(older.body.expires_at, new Date(Date.parse(older.body.date) + 7 * 24 * HOUR).toISOString());
    const listed = await call(
      'GET',
      '/receipts?date[gte]=2026-11-24T00:00:00.000Z&date[lte]=2026-11-26T00:00:00.000Z&limit=1&page=2',
    );
    assert.deepEqual(
      {
        page: listed.body.page,
        total_pages: listed.body.total_pages,
        total_results: listed.body.total_results,
      },
      { page: 2, total_pages: 2, total_results: 2 },
    );
    assert.ok(listed.body.data.every((found: Json) => found.id !== older.body.id));

    assert.equal((await call('GET', `/receipts/${receipt.id}`)).body.external_id, 'ticket-1');
    const canceled = await call('DELETE', `/receipts/${receipt.id}`);
    assert.equal(canceled.body.status, 'canceled');
    const again = await call('DELETE', `/receipts/${receipt.id}`);
    assert.deepEqual([again.status, again.body.code], [400, 'receipt_not_open']);
    const missing = await call('GET', '/receipts/000000000000000000000000');
    assert.deepEqual([missing.status, missing.body.code], [404, 'receipt_not_found']);
  });

  it('leaves out the portal URL without a self-invoice domain and ends expiry at the period', async (t) => {
    const { simulator, call } = await startSimulator(t, { selfInvoiceDomain: null });
    simulator.setReceiptSettings({ periodicity: 'week', durationDays: 0 });
    const receipt = (await call('POST', '/receipts', receiptBody())).body;
    assert.equal(receipt.self_invoice_url, undefined);
    // Sunday 29 November, 23:59:59.999 in Mexico City (UTC−6).
    assert.equal(receipt.expires_at, '2026-11-30T05:59:59.999Z');
  });

  it('refuses a repeated idempotency key without making a second receipt', async (t) => {
    const { simulator, call } = await startSimulator(t);
    assert.equal((await call('POST', '/receipts', receiptBody({ idempotency_key: 'sale-42' }))).status, 200);
    const repeated = await call('POST', '/receipts', receiptBody({ idempotency_key: 'sale-42' }));
    assert.deepEqual([repeated.status, repeated.body.code], [400, 'idempotency_key_in_use']);
    assert.equal(simulator.receipts().length, 1);
  });

  it('refuses receipts that break the input contract', async (t) => {
    const { simulator, call } = await startSimulator(t);
    const cases: [unknown, string][] = [
      [receiptBody({ payment_form: '99' }), 'payment_form'],
      [receiptBody({ items: [] }), 'items'],
      [receiptBody({ items: [{ quantity: 0, product: taco().product }] }), 'items.0.quantity'],
      [
        receiptBody({ items: [{ quantity: 1, product: { ...taco().product, product_key: '9010150' } }] }),
        'items.0.product.product_key',
      ],
      [
        receiptBody({ items: [{ quantity: 1, product: { ...taco().product, price: -1 } }] }),
        'items.0.product.price',
      ],
      [
        receiptBody({ items: [{ quantity: 1, discount: 60, product: taco(58).product }] }),
        'items.0.discount',
      ],
    ];
    for (const [body, path] of cases) {
      const answer = await call('POST', '/receipts', body);
      assert.deepEqual([answer.status, answer.body.code, answer.body.path], [400, 'invalid_request', path]);
      assert.equal(answer.body.errors[0].source, 'facturapi');
    }
    assert.equal(simulator.receipts().length, 0);
  });

  it('invoices an open receipt to a customer and closes it', async (t) => {
    const { call } = await startSimulator(t);
    const receipt = (await call('POST', '/receipts', receiptBody())).body;
    const answer = await call('POST', `/receipts/${receipt.id}/invoice`, {
      customer: COMPANY,
      use: 'G03',
      series: 'F',
    });
    assert.equal(answer.status, 200);
    const invoice = answer.body;
    assert.deepEqual(
      [
        invoice.status,
        invoice.cancellation_status,
        invoice.type,
        invoice.total,
        invoice.series,
        invoice.folio_number,
      ],
      ['valid', 'none', 'I', 141.5, 'F', 1],
    );
    assert.equal(invoice.customer.tax_id, 'EKU9003173C9');
    assert.match(invoice.uuid, /^[0-9a-f-]{36}$/);
    assert.match(invoice.verification_url, new RegExp(`id=${invoice.uuid.toUpperCase()}`));
    const closed = (await call('GET', `/receipts/${receipt.id}`)).body;
    assert.deepEqual([closed.status, closed.invoice], ['invoiced_to_customer', invoice.id]);
    const twice = await call('POST', `/receipts/${receipt.id}/invoice`, { customer: COMPANY, use: 'G03' });
    assert.deepEqual([twice.status, twice.body.code], [400, 'receipt_not_open']);
  });

  it('checks the receiver as the SAT has it', async (t) => {
    const { simulator, call, control } = await startSimulator(t);
    const receipt = (await call('POST', '/receipts', receiptBody())).body;
    const invoiceTo = (customer: Json, use = 'G03') =>
      call('POST', `/receipts/${receipt.id}/invoice`, { customer, use });

    const badDigit = await invoiceTo({ ...COMPANY, tax_id: 'EKU9003173C8' });
    assert.deepEqual([badDigit.body.code, badDigit.body.path], ['invalid_request', 'customer.tax_id']);
    assert.equal((await invoiceTo({ ...COMPANY, tax_system: '999' })).body.code, 'tax_system_not_in_catalog');
    // 605 (salaries) belongs to personas físicas; this RFC is a company's.
    assert.equal(
      (await invoiceTo({ ...COMPANY, tax_system: '605' })).body.code,
      'tax_system_not_allowed_for_tax_id',
    );
    const wrongUse = await invoiceTo({ ...COMPANY }, 'D01');
    assert.deepEqual([wrongUse.body.code, wrongUse.body.path], ['invalid_request', 'use']);

    assert.equal((await control('/unregistered', { rfc: 'URE180429TM6' })).status, 200);
    const unregistered = await invoiceTo({
      ...COMPANY,
      legal_name: 'UNIVERSIDAD ROBOTICA ESPAÑOLA',
      tax_id: 'URE180429TM6',
    });
    assert.deepEqual([unregistered.status, unregistered.body.code], [400, 'tax_id_not_found']);

    simulator.addReceiver({
      rfc: 'EKU9003173C9',
      legalName: 'ESCUELA KEMPER URGATE',
      zip: '42501',
      regimes: ['601'],
    });
    assert.equal(
      (await invoiceTo({ ...COMPANY, legal_name: 'Escuela Kemper' })).body.code,
      'legal_name_mismatch',
    );
    assert.equal(
      (await invoiceTo({ ...COMPANY, address: { zip: '01000' } })).body.code,
      'tax_address_zip_mismatch',
    );
    assert.equal(
      (await invoiceTo({ ...COMPANY, tax_system: '626' })).body.code,
      'tax_system_not_allowed_for_tax_id',
    );
    const both = await invoiceTo({ ...COMPANY, legal_name: 'Kemper', address: { zip: '01000' } });
    assert.deepEqual(
      both.body.errors.map((error: Json) => error.code),
      ['legal_name_mismatch', 'tax_address_zip_mismatch'],
    );
    assert.equal(simulator.invoices().length, 0);
    // Name compared in capitals, spaces collapsed, as the SAT does.
    assert.equal((await invoiceTo({ ...COMPANY, legal_name: ' Escuela  Kemper Urgate ' })).status, 200);
  });

  it('puts every open receipt of the period in one global invoice, once', async (t) => {
    const { simulator, call } = await startSimulator(t);
    simulator.setNow(new Date('2026-11-26T15:00:00Z'));
    const tuesday = (hour: number) => new Date(Date.UTC(2026, 10, 24, hour)).toISOString();
    const cash = (await call('POST', '/receipts', receiptBody({ date: tuesday(15) }))).body;
    const card = (
      await call(
        'POST',
        '/receipts',
        receiptBody({ date: tuesday(20), payment_form: '04', items: [taco(1160)] }),
      )
    ).body;
    const invoiced = (await call('POST', '/receipts', receiptBody({ date: tuesday(16) }))).body;
    await call('POST', `/receipts/${invoiced.id}/invoice`, { customer: COMPANY, use: 'G03' });
    const canceled = (await call('POST', '/receipts', receiptBody({ date: tuesday(17) }))).body;
    await call('DELETE', `/receipts/${canceled.id}`);
    const nextDay = (await call('POST', '/receipts', receiptBody({ date: '2026-11-25T07:00:00Z' }))).body;

    // Tuesday 24 November in Mexico City: 06:00Z to 05:59:59.999Z the next day.
    const period = { periodicity: 'day', from: '2026-11-24T06:00:00.000Z', to: '2026-11-25T05:59:59.999Z' };
    const first = await call('POST', '/receipts/global-invoice', period);
    assert.equal(first.status, 200);
    const global = first.body;
    assert.deepEqual(
      [global.customer.tax_id, global.customer.legal_name, global.customer.tax_system, global.use],
      ['XAXX010101000', 'PUBLICO EN GENERAL', '616', 'S01'],
    );
    assert.equal(global.total, 141.5 + 1160);
    assert.equal(global.payment_form, '04', 'the form that paid the most');
    assert.deepEqual(global.global, { periodicity: 'day', months: '11', year: 2026 });
    const statuses = new Map(
      simulator.receipts().map((receipt) => [receipt.id, [receipt.status, receipt.invoice]]),
    );
    assert.deepEqual(statuses.get(cash.id), ['invoiced_globally', global.id]);
    assert.deepEqual(statuses.get(card.id), ['invoiced_globally', global.id]);
    assert.deepEqual(statuses.get(canceled.id), ['canceled', null]);
    assert.equal(statuses.get(invoiced.id)?.[0], 'invoiced_to_customer');
    assert.deepEqual(statuses.get(nextDay.id), ['open', null]);

    const xml = await (
      await fetch(`${simulator.url}/invoices/${global.id}/xml`, {
        headers: { authorization: `Bearer ${simulator.key}` },
      })
    ).text();
    assert.match(xml, /<cfdi:InformacionGlobal Periodicidad="01" Meses="11" Año="2026"\/>/);
    assert.match(
      xml,
      /<cfdi:Receptor Rfc="XAXX010101000" Nombre="PUBLICO EN GENERAL"[^>]*RegimenFiscalReceptor="616" UsoCFDI="S01"\/>/,
    );
    assert.equal(xml.match(/<cfdi:Concepto ClaveProdServ="01010101"/g)?.length, 2);

    const second = await call('POST', '/receipts/global-invoice', period);
    assert.deepEqual([second.status, second.body], [200, null]);
    assert.equal(simulator.invoices().length, 2);

    // Without bounds, the last closed day: Wednesday, which holds the last open receipt.
    const lastDay = await call('POST', '/receipts/global-invoice', { periodicity: 'day' });
    assert.equal(lastDay.body.total, 141.5);
    assert.deepEqual(
      simulator.receipts().find((receipt) => receipt.id === nextDay.id)?.status,
      'invoiced_globally',
    );
  });

  it('refuses a global invoice more than 72 hours after the period closed, or across periods', async (t) => {
    const { simulator, call } = await startSimulator(t);
    await call('POST', '/receipts', receiptBody({ date: '2026-11-21T18:00:00Z' }));
    const saturday = { periodicity: 'day', from: '2026-11-21T06:00:00.000Z', to: '2026-11-22T05:59:59.999Z' };
    // 78 hours after Saturday closed.
    const late = await call('POST', '/receipts/global-invoice', saturday);
    assert.deepEqual([late.status, late.body.code, late.body.path], [400, 'invalid_date', 'to']);
    const across = await call('POST', '/receipts/global-invoice', {
      ...saturday,
      to: '2026-11-23T05:59:59.999Z',
    });
    assert.equal(across.body.code, 'invalid_global_invoice_period');
    simulator.setNow(new Date('2026-11-24T18:00:00Z'));
    assert.equal((await call('POST', '/receipts/global-invoice', saturday)).status, 200);
  });

  it('issues a credit note related to an invoice and prints both as CFDI 4.0', async (t) => {
    const { simulator, call } = await startSimulator(t);
    const receipt = (await call('POST', '/receipts', receiptBody())).body;
    const invoice = (await call('POST', `/receipts/${receipt.id}/invoice`, { customer: COMPANY, use: 'G03' }))
      .body;
    const answer = await call('POST', '/invoices', {
      type: 'E',
      customer: COMPANY,
      use: 'G02',
      external_id: 'refund-7',
      payment_form: '01',
      items: [{ product: { description: 'Devolución agua de jamaica', price: 25.5 } }],
      // One UUID as a plain string, as in Facturapi's egreso guide.
      related_documents: [{ relationship: '01', documents: invoice.uuid }],
    });
    assert.equal(answer.status, 200);
    const note = answer.body;
    assert.deepEqual([note.type, note.status, note.total, note.use], ['E', 'valid', 25.5, 'G02']);
    assert.equal(note.items[0].product.product_key, '84111506');
    // A client that lost the answer finds the note by its external id.
    const found = await call('GET', '/invoices?external_id=refund-7&limit=1');
    assert.deepEqual([found.body.total_results, found.body.data[0].id], [1, note.id]);
    assert.equal((await call('GET', `/invoices?uuid=${invoice.uuid}`)).body.data[0].id, invoice.id);
    assert.equal((await call('GET', '/invoices?type=I')).body.total_results, 1);
    assert.equal((await call('GET', '/invoices?external_id=nothing')).body.total_results, 0);

    const download = (id: string, format: string) =>
      fetch(`${simulator.url}/invoices/${id}/${format}`, {
        headers: { authorization: `Bearer ${simulator.key}` },
      });
    const noteXml = await (await download(note.id, 'xml')).text();
    assert.match(noteXml, /TipoDeComprobante="E"/);
    assert.match(
      noteXml,
      new RegExp(
        `<cfdi:CfdiRelacionados TipoRelacion="01"><cfdi:CfdiRelacionado UUID="${invoice.uuid.toUpperCase()}"/>`,
      ),
    );

    const xmlAnswer = await download(invoice.id, 'xml');
    assert.match(xmlAnswer.headers.get('content-type') ?? '', /xml/);
    const xml = await xmlAnswer.text();
    assert.match(xml, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<cfdi:Comprobante [^>]*Version="4.0"/);
    const stampUuid = /<tfd:TimbreFiscalDigital [^>]*Version="1.1" UUID="([^"]+)"/.exec(xml)?.[1];
    assert.equal(stampUuid?.toLowerCase(), invoice.uuid);
    const attribute = (name: string, text = xml) => Number(new RegExp(` ${name}="([^"]+)"`).exec(text)?.[1]);
    const summary =
      /<cfdi:Impuestos TotalImpuestosTrasladados="[^"]+"><cfdi:Traslados>(.*?)<\/cfdi:Traslados>/.exec(
        xml,
      )?.[1] ?? '';
    assert.equal(attribute('Total'), invoice.total);
    assert.equal(
      Math.round((attribute('Base', summary) + attribute('Importe', summary)) * 100) / 100,
      invoice.total,
    );
    assert.equal(
      Math.round(
        (attribute('SubTotal') - attribute('Descuento') + attribute('TotalImpuestosTrasladados')) * 100,
      ) / 100,
      invoice.total,
    );

    const pdf = await download(invoice.id, 'pdf');
    assert.equal(pdf.headers.get('content-type'), 'application/pdf');
    const pdfBytes = Buffer.from(await pdf.arrayBuffer());
    assert.equal(pdfBytes.subarray(0, 5).toString('latin1'), '%PDF-');
    assert.match(pdfBytes.toString('latin1'), new RegExp(invoice.uuid.toUpperCase()));
    const zip = Buffer.from(await (await download(invoice.id, 'zip')).arrayBuffer());
    assert.equal(zip.subarray(0, 4).toString('latin1'), 'PK\u0003\u0004');
    assert.ok(
      zip.includes(`${invoice.uuid.toUpperCase()}.xml`) && zip.includes(`${invoice.uuid.toUpperCase()}.pdf`),
    );

    const publicCustomer = {
      legal_name: 'PUBLICO EN GENERAL',
      tax_id: 'XAXX010101000',
      tax_system: '616',
      address: { zip: '42501' },
    };
    const byHand = await call('POST', '/invoices', {
      customer: publicCustomer,
      use: 'S01',
      payment_form: '01',
      items: [taco(116)],
      global: { periodicity: 'month', months: '11', year: 2026 },
    });
    assert.deepEqual(byHand.body.global, { periodicity: 'month', months: '11', year: 2026 });
    assert.match(
      await (await download(byHand.body.id, 'xml')).text(),
      /<cfdi:InformacionGlobal Periodicidad="04" Meses="11" Año="2026"\/>/,
    );
    const notPublic = await call('POST', '/invoices', {
      customer: COMPANY,
      use: 'G03',
      payment_form: '01',
      items: [taco(116)],
      global: { periodicity: 'month', months: '11', year: 2026 },
    });
    assert.deepEqual([notPublic.body.code, notPublic.body.path], ['invalid_request', 'global']);

    const blocked = await call('DELETE', `/invoices/${invoice.id}?motive=02`);
    assert.deepEqual([blocked.status, blocked.body.code], [400, 'invoice_not_cancelable_by_sat']);
  });

  it('cancels at once or waits for the receiver, as the SAT decides', async (t) => {
    const { simulator, call, control } = await startSimulator(t);
    const invoiceOf = async (price: number) => {
      const receipt = (await call('POST', '/receipts', receiptBody({ items: [taco(price)] }))).body;
      return (await call('POST', `/receipts/${receipt.id}/invoice`, { customer: COMPANY, use: 'G03' })).body;
    };
    const small = await invoiceOf(999);
    const large = await invoiceOf(1500);
    const other = await invoiceOf(2000);

    const sameDay = await call('DELETE', `/invoices/${other.id}?motive=02`);
    assert.deepEqual([sameDay.body.status, sameDay.body.cancellation_status], ['canceled', 'accepted']);

    // Friday: past the end of Thursday, the business day after the stamp.
    simulator.setNow(new Date('2026-11-27T18:00:00Z'));
    const noMotive = await call('DELETE', `/invoices/${large.id}`);
    assert.deepEqual(
      [noMotive.status, noMotive.body.code, noMotive.body.path],
      [400, 'invalid_request', 'motive'],
    );
    const noSubstitute = await call('DELETE', `/invoices/${large.id}?motive=01`);
    assert.equal(noSubstitute.body.code, 'substitution_invoice_required');
    const cheap = await call('DELETE', `/invoices/${small.id}?motive=03`);
    assert.deepEqual([cheap.body.status, cheap.body.cancellation_status], ['canceled', 'accepted']);

    const pending = await call('DELETE', `/invoices/${large.id}?motive=02`);
    assert.deepEqual(
      [pending.status, pending.body.status, pending.body.cancellation_status],
      [200, 'valid', 'pending'],
    );
    const repeated = await call('DELETE', `/invoices/${large.id}?motive=02`);
    assert.deepEqual([repeated.status, repeated.body.code], [409, 'invoice_cancellation_in_progress']);

    simulator.resolveCancellation(large.id, false);
    assert.equal((await call('GET', `/invoices/${large.id}`)).body.cancellation_status, 'rejected');
    await call('DELETE', `/invoices/${large.id}?motive=02`);
    assert.equal((await control(`/invoices/${large.id}/cancellation`, { accept: true })).status, 200);
    const accepted = (await call('GET', `/invoices/${large.id}`)).body;
    assert.deepEqual([accepted.status, accepted.cancellation_status], ['canceled', 'accepted']);
    const canceledTwice = await call('DELETE', `/invoices/${large.id}?motive=02`);
    assert.deepEqual([canceledTwice.status, canceledTwice.body.code], [409, 'invoice_not_cancelable']);
  });

  it('loses answers after doing the work, fails, throttles and slows on request', async (t) => {
    const { simulator, url, headers, call, control } = await startSimulator(t);
    simulator.setFaults({ loseAnswer: 1, only: { loseAnswer: '^POST /v2/receipts$' } });
    await call('GET', '/receipts');
    await assert.rejects(
      fetch(`${url}/receipts`, {
        method: 'POST',
        headers,
        body: JSON.stringify(receiptBody({ idempotency_key: 'k1' })),
      }),
    );
    assert.equal(simulator.receipts().length, 1, 'the receipt was made though nobody heard');
    const retried = await call('POST', '/receipts', receiptBody({ idempotency_key: 'k1' }));
    assert.equal(retried.body.code, 'idempotency_key_in_use');

    assert.equal((await control('/faults', { fail5xx: 1, rateLimit: 1 })).status, 200);
    const throttled = await call('GET', '/receipts');
    assert.deepEqual(
      [throttled.status, throttled.body.code, throttled.headers.get('retry-after')],
      [429, 'rate_limit_exceeded', '1'],
    );
    const failed = await call('POST', '/receipts', receiptBody());
    assert.deepEqual([failed.status, failed.body.code], [500, 'internal_error']);
    assert.equal(simulator.receipts().length, 1, 'a 500 does nothing');
    assert.equal((await call('GET', '/receipts')).status, 200);

    simulator.setFaults({ delayMs: 150 });
    const started = performance.now();
    await call('GET', '/receipts');
    assert.ok(performance.now() - started >= 140);
    simulator.setFaults({ delayMs: 0 });

    const state = await (await control('/state')).json();
    assert.deepEqual(state.counts, { receipts: 1, invoices: 0, requests: 7 });
    assert.deepEqual(
      simulator
        .requests()
        .slice(0, 2)
        .map((request) => `${request.method} ${request.path}`),
      ['GET /v2/receipts', 'POST /v2/receipts'],
    );
    assert.equal((simulator.requests()[1] as Json).body.idempotency_key, 'k1');
  });

  it('sets its clock, domain, receivers and state over HTTP', async (t) => {
    const { simulator, call, control } = await startSimulator(t);
    assert.equal((await control('/now', { now: '2026-01-05T18:00:00Z' })).status, 200);
    assert.equal((await control('/self-invoice-domain', { domain: 'tacos-el-gordo' })).status, 200);
    assert.equal(
      (
        await control('/receivers', {
          rfc: 'EKU9003173C9',
          legalName: 'OTRA',
          zip: '42501',
          regimes: ['601'],
        })
      ).status,
      200,
    );
    const receipt = (await call('POST', '/receipts', receiptBody())).body;
    assert.equal(receipt.date, '2026-01-05T18:00:00.000Z');
    assert.match(receipt.self_invoice_url, /^https:\/\/factura\.space\/tacos-el-gordo\//);
    const refused = await call('POST', `/receipts/${receipt.id}/invoice`, { customer: COMPANY, use: 'G03' });
    assert.equal(refused.body.code, 'legal_name_mismatch');
    assert.equal((await control('/reset', {})).status, 200);
    assert.equal(simulator.receipts().length, 0);
    assert.equal(
      (await call('POST', `/receipts/${receipt.id}/invoice`, { customer: COMPANY })).body.code,
      'receipt_not_found',
    );
    const unknown = await control('/nothing', {});
    assert.equal(unknown.status, 404);
  });
});
