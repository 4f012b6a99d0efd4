import { invalidField, required } from './errors';
import { PAYMENT_FORMS } from './sat-catalogs';

/** Typed reads of a JSON body's fields, refusing as Facturapi does (`invalid_request` with a path). */
export class Fields {
  readonly values: Record<string, unknown>;

  constructor(body: unknown) {
    if (body === undefined) this.values = {};
    else if (typeof body === 'object' && body !== null && !Array.isArray(body))
      this.values = body as Record<string, unknown>;
    else throw invalidField('', 'invalid_type', 'El cuerpo de la solicitud debe ser un objeto JSON.');
  }

  optionalString(name: string): string | undefined {
    const value = this.values[name];
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'string')
      throw invalidField(name, 'invalid_type', `El campo "${name}" debe ser texto.`);
    return value;
  }

  string(name: string): string {
    const value = this.optionalString(name);
    if (value === undefined) throw required(name);
    return value;
  }

  optionalInteger(name: string): number | undefined {
    const value = this.values[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isSafeInteger(value))
      throw invalidField(name, 'invalid_type', `El campo "${name}" debe ser un número entero.`);
    return value;
  }

  optionalDate(name: string): Date | undefined {
    const value = this.optionalString(name);
    if (value === undefined) return undefined;
    const date = new Date(value);
    if (Number.isNaN(date.getTime()))
      throw invalidField(
        name,
        'invalid_format',
        `El campo "${name}" debe ser una fecha en formato ISO 8601.`,
      );
    return date;
  }

  /** A c_FormaPago key; "99" (to be defined) cannot go on a paid sale (method PUE). */
  paymentForm(name = 'payment_form'): string {
    const form = this.string(name);
    if (PAYMENT_FORMS[form] === undefined)
      throw invalidField(
        name,
        'invalid_value',
        `La forma de pago "${form}" no existe en el catálogo del SAT.`,
      );
    if (form === '99')
      throw invalidField(
        name,
        'not_allowed',
        'La forma de pago "99" (Por definir) solo puede usarse con el método de pago PPD.',
      );
    return form;
  }
}
