import { BadRequestError } from '../core/errors';
import { PacRefusal } from '../core/pac';

/**
 * The PAC's refusals a restaurant meets, by the error's `code` (root or detail; its Spanish `message`
 * may change and is never matched), in the plain words the till shows (translated there).
 */
const REASONS: Readonly<Record<string, string>> = {
  tax_id_not_found: "This RFC is not in the SAT's list of registered taxpayers",
  legal_name_mismatch:
    "The name does not match the RFC in the SAT's records: write it exactly as on the Constancia de Situación Fiscal",
  tax_address_zip_mismatch: "The postal code does not match the RFC's fiscal address in the SAT's records",
  tax_system_not_allowed_for_tax_id: "This tax regime is not the RFC's in the SAT's records",
  tax_system_not_in_catalog: 'This tax regime is not in the SAT catalogue',
  use_not_allowed_for_tax_system: 'This CFDI use is not allowed for the tax regime',
  product_key_not_found: 'A product key of the settings or the menu is not in the SAT catalogue',
  unit_key_not_found: 'The unit key of the settings is not in the SAT catalogue',
  organization_incomplete:
    "The PAC account is not ready to stamp: upload the restaurant's CSD in its dashboard",
  api_key_invalid: 'The PAC refused the key: check POS_PAC_KEY',
  invoice_not_cancelable_by_sat:
    'The SAT does not cancel a CFDI that a valid one relates to (a credit note): cancel that one first',
};

/** The reason in plain words: a known code's, else the PAC's own text, named as the PAC's. */
export function explainRefusal(refusal: PacRefusal): string {
  for (const code of [refusal.code, ...refusal.details.map((detail) => detail.code ?? '')]) {
    const reason = REASONS[code];
    if (reason) return reason;
  }
  return `The PAC refused it: ${refusal.message}`;
}

/** A refusal as the 400 the till shows; anything else passes through. */
export function asBadRequest(error: unknown): unknown {
  return error instanceof PacRefusal ? new BadRequestError(explainRefusal(error)) : error;
}
