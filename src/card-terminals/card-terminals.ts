import type { Config } from '../config';
import type { CardTerminal } from '../core/card-terminal';
import { MercadoPagoClient } from './mercadopago.client';

/** The card provider's client when its access token is configured; otherwise there is no integrated terminal. */
export function cardTerminalFromConfig(cardTerminal: Config['cardTerminal']): CardTerminal | undefined {
  return cardTerminal === undefined ? undefined : new MercadoPagoClient(cardTerminal);
}
