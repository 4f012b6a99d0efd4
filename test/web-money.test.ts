import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

// core/money.ts reads the chosen language at import (localStorage, navigator, document): the
// smallest stand-ins for them, before the import.
const stored = new Map<string, string>();
Object.assign(globalThis, {
  localStorage: {
    getItem: (key: string) => stored.get(key) ?? null,
    setItem: (key: string, value: string) => stored.set(key, value),
  },
  document: { documentElement: { lang: '' } },
});
Object.defineProperty(globalThis, 'navigator', {
  value: { language: 'es-MX', languages: ['es-MX'] },
  configurable: true,
});
const { moneyFormatter, satsFormatter } = await import('../web/src/core/money');
const { fromCents, parseCents, parseSignedCents, splitEvenly, toCents } = await import(
  '../web/src/core/cents'
);

describe('web money formatting', () => {
  it('writes pesos as $1,255.50 in Mexican Spanish and in English', () => {
    assert.equal(moneyFormatter('es', 'MXN')(125550), '$1,255.50');
    assert.equal(moneyFormatter('en', 'MXN')(125550), '$1,255.50');
    assert.equal(moneyFormatter('es', 'MXN')(-5), '-$0.05');
  });

  it("uses the restaurant's currency, never a default one", () => {
    assert.equal(moneyFormatter('es', 'EUR')(125550), '€1,255.50');
    assert.equal(moneyFormatter('en', 'USD')(100), '$1.00');
    // Before the currency is known: the amount alone, not euros.
    assert.equal(moneyFormatter('es', null)(125550), '1,255.50');
  });
});

describe('web sats formatting', () => {
  it('groups satoshis by thousands in both languages', () => {
    assert.equal(satsFormatter('es')(16115), '16,115');
    assert.equal(satsFormatter('en')(1234567), '1,234,567');
    assert.equal(satsFormatter('es')(619), '619');
  });
});

describe('web money typed in', () => {
  it('reads what a person types from its digits: a dot or a comma, up to two decimals', () => {
    assert.equal(parseCents('20'), 2000);
    assert.equal(parseCents('20.5'), 2050);
    assert.equal(parseCents('20,50'), 2050);
    assert.equal(parseCents(' 12. '), 1200);
    assert.equal(parseCents('4.35'), 435);
    assert.equal(parseCents('0.07'), 7);
  });

  it('reads thousands grouped as the screens print them: 1,234.50 and 12,345,678', () => {
    assert.equal(parseCents('1,234.50'), 123450);
    assert.equal(parseCents('1,234'), 123400);
    assert.equal(parseCents('12,345,678.9'), 1234567890);
    for (const text of ['1,23.50', '1,2345', '12,34,567', ',234.50', '1,234.567']) {
      assert.equal(parseCents(text), undefined, JSON.stringify(text));
    }
  });

  it('refuses anything that is not such an amount, and more than ten whole digits', () => {
    for (const text of ['', ' ', '-1', '1.234', '1e3', '12abc', '1.2.3', '.5', '12345678901', 'Infinity']) {
      assert.equal(parseCents(text), undefined, JSON.stringify(text));
    }
    assert.equal(parseCents('1234567890.99'), 123456789099);
  });

  it('reads a price change that may be negative', () => {
    assert.equal(parseSignedCents('-5.50'), -550);
    assert.equal(parseSignedCents(' 5 '), 500);
    assert.equal(parseSignedCents('--5'), undefined);
    assert.equal(parseSignedCents('-'), undefined);
  });

  it('converts API amounts and splits evenly to the cent', () => {
    assert.equal(toCents(19.99), 1999);
    assert.equal(fromCents(1250), 12.5);
    assert.deepEqual(splitEvenly(1000, 3), [334, 333, 333]);
    assert.equal(
      splitEvenly(1001, 7).reduce((sum, part) => sum + part, 0),
      1001,
    );
  });
});
