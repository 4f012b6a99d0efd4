import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newId, shortCode } from '../src/core/ids';
import { shortCode as screenShortCode } from '../web/src/core/short-code';

describe('order short code', () => {
  it('is the first six hex digits of the id, upper-case', () => {
    assert.equal(shortCode('675ccaf8-1d2e-4f3a-8b4c-5d6e7f8a9b0c'), '675CCA');
  });

  it('is written the same by the screens as by the paper', () => {
    for (let each = 0; each < 20; each++) {
      const id = newId();
      assert.equal(screenShortCode(id), shortCode(id));
    }
  });
});
