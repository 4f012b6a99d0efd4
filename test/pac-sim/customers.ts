import { Rfc } from '@nodecfdi/rfc';
import { type ErrorDetail, invalidField, PacError, required } from './errors';
import type { Receiver, SimCustomer } from './model';
import { FOREIGN_TAX_ID, GENERAL_PUBLIC, isUseAllowed, type PersonType, TAX_REGIMES } from './sat-catalogs';

/** What Facturapi checks of a receiver before stamping, from the SAT's list of registered RFCs. */
export type TaxpayerRegistry = {
  receivers: Map<string, Receiver>;
  unregistered: Set<string>;
};

type Raw = Record<string, unknown>;
const isObject = (value: unknown): value is Raw =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The `customer` object of an invoice request, shaped and checked as Facturapi and the SAT do. */
export function parseCustomer(value: unknown): SimCustomer {
  if (value === undefined) throw required('customer');
  if (typeof value === 'string')
    throw invalidField(
      'customer',
      'not_allowed',
      'El simulador no guarda clientes: envía el objeto "customer" completo.',
    );
  if (!isObject(value))
    throw invalidField('customer', 'invalid_type', 'El campo "customer" debe ser un objeto.');
  const text = (name: string) => {
    const field = value[name];
    if (field === undefined || field === '') throw required(`customer.${name}`);
    if (typeof field !== 'string')
      throw invalidField(`customer.${name}`, 'invalid_type', `El campo "customer.${name}" debe ser texto.`);
    return field.trim();
  };
  const legalName = text('legal_name');
  const taxId = text('tax_id').toUpperCase();
  const taxSystem = text('tax_system');
  if (!isObject(value.address)) throw required('customer.address.zip');
  const zip = value.address.zip;
  if (zip === undefined) throw required('customer.address.zip');
  if (typeof zip !== 'string' || !/^\d{5}$/.test(zip))
    throw invalidField(
      'customer.address.zip',
      'invalid_format',
      'El campo "customer.address.zip" debe ser un código postal de 5 dígitos.',
    );
  const email = value.email;
  if (email !== undefined && (typeof email !== 'string' || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)))
    throw invalidField(
      'customer.email',
      'invalid_format',
      'El campo "customer.email" debe ser un correo válido.',
    );
  return {
    legal_name: legalName,
    tax_id: taxId,
    tax_system: taxSystem,
    ...(email !== undefined && { email }),
    address: { zip, country: 'MEX' },
  };
}

/** The kind of taxpayer an RFC names, or an `invalid_request` when its shape or check digit is wrong. */
function personOf(taxId: string): PersonType {
  const rfc = Rfc.parseOrNull(taxId);
  const isSpecial = taxId === GENERAL_PUBLIC.taxId || taxId === FOREIGN_TAX_ID;
  if (rfc === null || (!isSpecial && !rfc.doesCheckSumMatch()))
    throw invalidField(
      'customer.tax_id',
      'invalid_format',
      `El RFC "${taxId}" no es válido: debe tener 12 caracteres (persona moral) o 13 (persona física) y un dígito verificador correcto.`,
    );
  return rfc.isMoral() ? 'moral' : 'fisica';
}

/**
 * The receiver checks Facturapi runs before stamping a CFDI 4.0 (RFC, regime, name and fiscal zip as
 * the SAT has them, and the CFDI use the regime allows). A single tax-information issue is the root
 * `code`; several come as `errors[]`, as Facturapi's error guide describes.
 */
export function checkReceiver(customer: SimCustomer, use: string, registry: TaxpayerRegistry): void {
  const person = personOf(customer.tax_id);
  const regime = TAX_REGIMES[customer.tax_system];
  if (regime === undefined)
    throw taxInfoError([
      detail(
        'tax_system_not_in_catalog',
        `El régimen fiscal "${customer.tax_system}" no pertenece al catálogo del SAT.`,
        'customer.tax_system',
      ),
    ]);
  if (!regime.persons.includes(person))
    throw taxInfoError([
      detail(
        'tax_system_not_allowed_for_tax_id',
        `El régimen fiscal "${customer.tax_system}" no corresponde a una persona ${person === 'moral' ? 'moral' : 'física'} (RFC ${customer.tax_id}).`,
        'customer.tax_system',
      ),
    ]);
  if (registry.unregistered.has(customer.tax_id))
    throw taxInfoError([
      detail(
        'tax_id_not_found',
        `No se encontró el RFC [${customer.tax_id}] en la lista de RFC inscritos no cancelados del SAT.`,
        'customer.tax_id',
      ),
    ]);
  const known = registry.receivers.get(customer.tax_id);
  if (known !== undefined) {
    const issues: ErrorDetail[] = [];
    if (normalizeName(known.legalName) !== normalizeName(customer.legal_name))
      issues.push(
        detail(
          'legal_name_mismatch',
          'El nombre o razón social no coincide con el registrado en el SAT para este RFC.',
          'customer.legal_name',
        ),
      );
    if (known.zip !== customer.address.zip)
      issues.push(
        detail(
          'tax_address_zip_mismatch',
          'El código postal del domicilio fiscal no coincide con el registrado en el SAT para este RFC.',
          'customer.address.zip',
        ),
      );
    if (!known.regimes.includes(customer.tax_system))
      issues.push(
        detail(
          'tax_system_not_allowed_for_tax_id',
          `El régimen fiscal "${customer.tax_system}" no está registrado en el SAT para este RFC.`,
          'customer.tax_system',
        ),
      );
    if (issues.length > 0) throw taxInfoError(issues);
  }
  if (!isUseAllowed(use, customer.tax_system, person))
    throw invalidField(
      'use',
      'not_allowed',
      `El uso de CFDI "${use}" no es válido para el régimen fiscal "${customer.tax_system}" del receptor.`,
    );
}

/** The SAT compares names in capitals, spaces collapsed. */
function normalizeName(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toUpperCase();
}

function detail(code: string, message: string, path: string): ErrorDetail {
  return { code, message, path, source: 'facturapi', location: 'body' };
}

function taxInfoError(issues: ErrorDetail[]): PacError {
  const first = issues[0] as ErrorDetail;
  const code = issues.length === 1 ? first.code : 'invoice_stamping_validation_error';
  return new PacError(400, code, first.message, issues);
}
