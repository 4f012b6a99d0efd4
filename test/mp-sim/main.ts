import { readFile } from 'node:fs/promises';
import { readWhole, runSimulator } from '../helpers/sim-process';
import { DEFAULTS, MercadoPagoSimulator } from './simulator';

const HELP = `npm run mp-sim [-- --help]

A simulated Mercado Pago Orders API for Point (terminals, orders, cancel, refunds, the Payments API
read, signed notifications) for trying the POS by hand; its /sim/* controls are listed in
test/mp-sim/control.ts and the README. It prints the POS_MP_* values to start the POS server with.

Environment:
  SIM_PORT                  port it listens on                           default 9790, 0 picks a free one
  SIM_HOST                  address it listens on                        default 127.0.0.1
  SIM_ACCESS_TOKEN          the Bearer token it accepts (also _FILE)     default ${DEFAULTS.accessToken}
  SIM_WEBHOOK_SECRET        the notifications' signing secret (also _FILE)  default ${DEFAULTS.webhookSecret}
  SIM_NOTIFICATION_URL      where it posts notifications                 default from the POS server's own
                            PORT and HOST: http://<HOST>:<PORT>/terminals/mercadopago/webhook (127.0.0.1 and 9154 when unset)
  SIM_MIN_AMOUNT            the least order amount, pesos                default ${DEFAULTS.minAmount}
  SIM_AT_TERMINAL_MS        a new order reaches the terminal after this  default ${DEFAULTS.atTerminalAfterMs}
  SIM_REFUND_SETTLE_MS      a refund is processed after this             default ${DEFAULTS.refundSettleAfterMs}
  SIM_NOTIFY_ATTEMPTS       tries per notification (1 = no retry)        default ${DEFAULTS.notificationAttempts}
  SIM_NOTIFY_RETRY_MS       first retry delay, doubled each time         default ${DEFAULTS.notificationRetryMs}
`;

async function readSecret(env: NodeJS.ProcessEnv, name: string, fallback: string): Promise<string> {
  const file = env[`${name}_FILE`]?.trim();
  if (file) return (await readFile(file, 'utf8')).trim();
  return env[name]?.trim() || fallback;
}

/** Where the POS server started with the same environment answers: a wildcard address is reached locally. */
function defaultNotificationUrl(env: NodeJS.ProcessEnv): string {
  const host = env.HOST?.trim() || '127.0.0.1';
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  const urlHost = reachable.includes(':') ? `[${reachable}]` : reachable;
  return `http://${urlHost}:${readWhole(env, 'PORT', 9154, 65535)}/terminals/mercadopago/webhook`;
}

async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<MercadoPagoSimulator | undefined> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP);
    return undefined;
  }
  const notificationUrl = env.SIM_NOTIFICATION_URL?.trim() || defaultNotificationUrl(env);
  if (!URL.canParse(notificationUrl)) throw new Error('SIM_NOTIFICATION_URL is not a URL');
  const minAmount = env.SIM_MIN_AMOUNT?.trim() || DEFAULTS.minAmount;
  if (!/^\d+(\.\d{1,2})?$/.test(minAmount)) throw new Error('SIM_MIN_AMOUNT must be an amount such as 5.00');
  const simulator = await MercadoPagoSimulator.start({
    port: readWhole(env, 'SIM_PORT', 9790, 65535),
    host: env.SIM_HOST?.trim() || '127.0.0.1',
    accessToken: await readSecret(env, 'SIM_ACCESS_TOKEN', DEFAULTS.accessToken),
    webhookSecret: await readSecret(env, 'SIM_WEBHOOK_SECRET', DEFAULTS.webhookSecret),
    notificationUrl,
    minAmount,
    atTerminalAfterMs: readWhole(env, 'SIM_AT_TERMINAL_MS', DEFAULTS.atTerminalAfterMs),
    refundSettleAfterMs: readWhole(env, 'SIM_REFUND_SETTLE_MS', DEFAULTS.refundSettleAfterMs),
    notificationAttempts: Math.max(1, readWhole(env, 'SIM_NOTIFY_ATTEMPTS', DEFAULTS.notificationAttempts)),
    notificationRetryMs: readWhole(env, 'SIM_NOTIFY_RETRY_MS', DEFAULTS.notificationRetryMs),
  });
  const pdv = simulator.point.terminals.filter((terminal) => terminal.operating_mode === 'PDV');
  console.log(`Mercado Pago Point simulator on ${simulator.url} (controls under ${simulator.url}/sim)`);
  console.log('Start the POS server with:');
  console.log(
    `  POS_MP_API_URL=${simulator.url} POS_MP_ACCESS_TOKEN=<SIM_ACCESS_TOKEN> POS_MP_WEBHOOK_SECRET=<SIM_WEBHOOK_SECRET>`,
  );
  console.log(`Terminals in PDV mode: ${pdv.map((terminal) => terminal.id).join(', ')}`);
  console.log(`notifications -> ${notificationUrl}`);
  console.log(
    `Tap a card: curl -XPOST -H 'content-type: application/json' -d '{"brand":"visa","last_four":"4242"}' ${simulator.url}/sim/terminals/${pdv[0]?.id}/tap`,
  );
  return simulator;
}

runSimulator(main);
