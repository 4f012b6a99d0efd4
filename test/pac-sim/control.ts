import { PacError } from './errors';
import type { PacFaults } from './faults';
import { Fields } from './fields';
import { PERIODICITIES, type Periodicity } from './periods';
import type { PacSimulator } from './simulator';

/**
 * The simulator's own controls, for trying the POS by hand (`npm run pac-sim`) and for tests in
 * other processes; tests in this one call the class. JSON bodies, the same Bearer key as the API.
 *
 *   GET  /sim/state                      counts, receipts, invoices, requests, faults, the clock
 *   POST /sim/reset                      forget everything (receipts, invoices, receivers, faults, clock)
 *   POST /sim/faults                     { delayMs?, fail5xx?, rateLimit?, loseAnswer?, only? }
 *   POST /sim/now                        { now: ISO instant | null }   null: the real clock again
 *   POST /sim/self-invoice-domain        { domain: string | null }    null: receipts without a portal URL
 *   POST /sim/receipt-settings           { periodicity?, durationDays? }
 *   POST /sim/receivers                  { rfc, legalName, zip, regimes: [] }   the SAT's record of an RFC
 *   POST /sim/unregistered               { rfc }   an RFC the SAT does not list
 *   POST /sim/invoices/{id}/cancellation { accept: boolean }   the receiver answers a pending cancellation
 */
export function handleControl(simulator: PacSimulator, method: string, path: string, body: unknown): unknown {
  const fields = new Fields(body);
  if (method === 'GET' && path === '/sim/state') return simulator.snapshot();
  if (method !== 'POST') throw unknownControl();
  const cancellation = /^\/sim\/invoices\/([^/]+)\/cancellation$/.exec(path);
  if (cancellation !== null) {
    const accept = fields.values.accept;
    if (typeof accept !== 'boolean')
      throw new PacError(400, 'invalid_request', '"accept" debe ser booleano.');
    simulator.resolveCancellation(decodeURIComponent(cancellation[1] as string), accept);
    return { ok: true };
  }
  switch (path) {
    case '/sim/reset':
      simulator.reset();
      break;
    case '/sim/faults':
      try {
        simulator.setFaults(fields.values as Partial<PacFaults>);
      } catch (error) {
        throw new PacError(400, 'invalid_request', error instanceof Error ? error.message : String(error));
      }
      break;
    case '/sim/now': {
      const now = fields.values.now;
      if (now === null) simulator.setNow(null);
      else simulator.setNow(fields.optionalDate('now') ?? invalid('"now" debe ser una fecha ISO o null.'));
      break;
    }
    case '/sim/self-invoice-domain': {
      const domain = fields.values.domain;
      if (domain !== null && (typeof domain !== 'string' || !/^[a-z0-9-]+$/.test(domain)))
        invalid('"domain" debe ser un nombre en minúsculas (letras, dígitos, guiones) o null.');
      simulator.setSelfInvoiceDomain(domain as string | null);
      break;
    }
    case '/sim/receipt-settings': {
      const periodicity = fields.optionalString('periodicity');
      if (periodicity !== undefined && !PERIODICITIES.includes(periodicity as Periodicity))
        invalid(`"periodicity" debe ser uno de ${PERIODICITIES.join(', ')}.`);
      const durationDays = fields.optionalInteger('durationDays');
      if (durationDays !== undefined && durationDays < 0) invalid('"durationDays" no puede ser negativo.');
      simulator.setReceiptSettings({
        ...(periodicity !== undefined && { periodicity: periodicity as Periodicity }),
        ...(durationDays !== undefined && { durationDays }),
      });
      break;
    }
    case '/sim/receivers': {
      const regimes = fields.values.regimes;
      if (!Array.isArray(regimes) || regimes.some((regime) => typeof regime !== 'string'))
        invalid('"regimes" debe ser una lista de claves de régimen fiscal.');
      simulator.addReceiver({
        rfc: fields.string('rfc'),
        legalName: fields.string('legalName'),
        zip: fields.string('zip'),
        regimes: regimes as string[],
      });
      break;
    }
    case '/sim/unregistered':
      simulator.addUnregistered(fields.string('rfc'));
      break;
    default:
      throw unknownControl();
  }
  return { ok: true };
}

function invalid(message: string): never {
  throw new PacError(400, 'invalid_request', message);
}

function unknownControl(): PacError {
  return new PacError(404, 'not_found', 'Control del simulador desconocido.');
}
