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
const { moneyFormatter } = await import('../web/src/core/money');

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
