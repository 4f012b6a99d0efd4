import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CFDI_USES,
  GLOBAL_PERIODICITY,
  globalInvoiceMonths,
  isUseAllowed,
  TAX_REGIMES,
} from './sat-catalogs';

describe('SAT catalogues', () => {
  it('names only regimes of c_RegimenFiscal in the uses, each for a kind of person that holds it', () => {
    for (const [use, entry] of Object.entries(CFDI_USES)) {
      for (const regime of entry.regimes) {
        const holder = TAX_REGIMES[regime];
        assert.ok(holder, `${use} names regime ${regime}`);
        assert.ok(
          holder.persons.some((person) => entry.persons.includes(person)),
          `${use} allows regime ${regime} to nobody`,
        );
      }
    }
  });

  it('lets a restaurant customer deduct meals (G03) but not a salaried one or the public at large', () => {
    assert.equal(isUseAllowed('G03', '601', 'moral'), true);
    assert.equal(isUseAllowed('G03', '626', 'fisica'), true);
    assert.equal(isUseAllowed('G03', '605', 'fisica'), false);
    assert.equal(isUseAllowed('G03', '616', 'fisica'), false);
    assert.equal(isUseAllowed('S01', '616', 'fisica'), true);
    assert.equal(isUseAllowed('D01', '612', 'moral'), false);
    assert.equal(isUseAllowed('X99', '601', 'moral'), false);
  });

  it('codes global invoices by period and month or bimester', () => {
    assert.deepEqual(Object.values(GLOBAL_PERIODICITY), ['01', '02', '03', '04', '05']);
    assert.equal(globalInvoiceMonths('day', 3), '03');
    assert.equal(globalInvoiceMonths('two_months', 1), '13');
    assert.equal(globalInvoiceMonths('two_months', 12), '18');
  });
});
