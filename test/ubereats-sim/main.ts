import { runSimulator } from '../helpers/sim-process';
import { UberEatsSimulator } from './simulator';

const HELP = `npm run ubereats-sim [-- --help]

A simulated Uber Eats (Marketplace APIs, one store) for trying the POS by hand; its /sim/* controls
are listed in test/ubereats-sim/control.ts. It prints the POS_UBEREATS_* values to start the POS with.

Environment:
  SIM_PORT            port it listens on (127.0.0.1)            default 9770, 0 picks a free one
  SIM_CLIENT_ID       the app's client id                       default sim-ubereats-client
  SIM_CLIENT_SECRET   the client secret (also signs webhooks)   default sim-ubereats-secret
  SIM_STORE_ID        the one store it knows                    default sim-store-1
  SIM_WEBHOOK_URL     where it posts orders.* webhooks          default from the POS server's own
                      PORT and HOST: http://<HOST>:<PORT>/channels/ubereats/webhook (127.0.0.1 and 9154 when unset)
  SIM_WEBHOOK_RETRY_MS  the first webhook back-off, doubling up to 7 sends   default 1000
`;

function readPort(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const port = Number(env[name]?.trim() || fallback);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`${name} must be an integer from 0 to 65535`);
  }
  return port;
}

/** Where the POS server started with the same environment answers: a wildcard address is reached locally. */
function defaultWebhookUrl(env: NodeJS.ProcessEnv): string {
  const host = env.HOST?.trim() || '127.0.0.1';
  const reachableHost = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  const urlHost = reachableHost.includes(':') ? `[${reachableHost}]` : reachableHost;
  return `http://${urlHost}:${readPort(env, 'PORT', 9154)}/channels/ubereats/webhook`;
}

async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<UberEatsSimulator | undefined> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP);
    return undefined;
  }
  const webhookUrl = env.SIM_WEBHOOK_URL?.trim() || defaultWebhookUrl(env);
  if (!URL.canParse(webhookUrl)) throw new Error('SIM_WEBHOOK_URL is not a URL');
  const retryMs = Number(env.SIM_WEBHOOK_RETRY_MS?.trim() || 1000);
  if (!Number.isInteger(retryMs) || retryMs < 1)
    throw new Error('SIM_WEBHOOK_RETRY_MS must be a whole number ≥ 1');

  const simulator = await UberEatsSimulator.start({
    port: readPort(env, 'SIM_PORT', 9770),
    clientId: env.SIM_CLIENT_ID?.trim() || 'sim-ubereats-client',
    clientSecret: env.SIM_CLIENT_SECRET?.trim() || 'sim-ubereats-secret',
    storeId: env.SIM_STORE_ID?.trim() || 'sim-store-1',
    webhookUrl,
    webhookRetryBaseMs: retryMs,
  });
  console.log(`Uber Eats simulator on ${simulator.url} (controls under ${simulator.url}/sim)`);
  console.log('Start the POS server with:');
  console.log(
    `  POS_UBEREATS_API_URL=${simulator.url} POS_UBEREATS_AUTH_URL=${simulator.url} ` +
      `POS_UBEREATS_CLIENT_ID=${simulator.clientId} POS_UBEREATS_CLIENT_SECRET=${simulator.clientSecret} ` +
      `POS_UBEREATS_STORE_ID=${simulator.store.id}`,
  );
  console.log(`webhook -> ${webhookUrl}`);

  return simulator;
}

runSimulator(main);
