import type { Config } from '../config';
import type { LightningFact } from '../core/startup';

const PROBE_TIMEOUT_MS = 3000;

/**
 * One `GET /getinfo` at start-up (and the payment check below), so the operator who just connected a node learns at once whether
 * it answers and takes the password. Never fatal: the server serves everything but the wallet and
 * Lightning bills without it, and starts answering them once the node is back. The probe speaks HTTP
 * itself instead of going through the client because the client folds a 401 into "unavailable",
 * which is right for a request but not for telling an operator what to fix.
 */
function authorization(password: string) {
  return { authorization: `Basic ${Buffer.from(`:${password}`).toString('base64')}` };
}

/**
 * phoenixd's limited-access password reads and makes invoices but gets 401 on every payment. A
 * `POST /payinvoice` without an invoice tells the two apart and pays nothing: the full password gets
 * 400 (the invoice is missing), the limited one 401 before the form is read. Anything else (no
 * answer in time) leaves the question open, so only a 401 says no.
 */
async function canPay(phoenixd: Config['phoenixd'], password: string): Promise<boolean> {
  try {
    const response = await fetch(`${phoenixd.url}/payinvoice`, {
      method: 'POST',
      headers: { ...authorization(password), 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
      signal: AbortSignal.timeout(Math.min(phoenixd.timeoutMs, PROBE_TIMEOUT_MS)),
    });
    await response.text();
    return response.status !== 401;
  } catch {
    return true;
  }
}

export async function probeLightningNode(phoenixd: Config['phoenixd']): Promise<LightningFact> {
  if (phoenixd.password === undefined) return { state: 'not-configured' };
  try {
    const response = await fetch(`${phoenixd.url}/getinfo`, {
      headers: authorization(phoenixd.password),
      signal: AbortSignal.timeout(Math.min(phoenixd.timeoutMs, PROBE_TIMEOUT_MS)),
    });
    const text = await response.text();
    if (response.status === 401) return { state: 'refused' };
    if (!response.ok) return { state: 'unreachable', reason: `it answered ${response.status}` };
    const info = JSON.parse(text) as { nodeId?: unknown; channels?: unknown };
    if (typeof info.nodeId !== 'string')
      return { state: 'unreachable', reason: 'its answer is not phoenixd’s' };
    return {
      state: 'answers',
      nodeId: info.nodeId,
      channels: Array.isArray(info.channels) ? info.channels.length : 0,
      canPay: await canPay(phoenixd, phoenixd.password),
    };
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'TimeoutError')
      return { state: 'unreachable', reason: `no answer within ${PROBE_TIMEOUT_MS} ms` };
    if (name === 'SyntaxError') return { state: 'unreachable', reason: 'its answer is not phoenixd’s' };
    const code = ((error as Error).cause as { code?: string } | undefined)?.code;
    return { state: 'unreachable', reason: code ?? (error as Error).message };
  }
}
