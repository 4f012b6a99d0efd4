import { readWhole, runSimulator } from '../helpers/sim-process';
import { DEFAULTS, RappiSimulator } from './simulator';

const HELP = `npm run rappi-sim [-- --help]

A simulated Rappi restaurant API (token login, orders, availability, store on/off, webhooks) for
trying the POS by hand; its /sim/* controls are listed in control.ts and the README.
It prints the POS_RAPPI_* values to start the POS server with.

Environment:
  SIM_PORT                 port it listens on (127.0.0.1)              default 9741, 0 picks a free one
  SIM_HOST                 address it listens on                       default 127.0.0.1
  SIM_CLIENT_ID            the integration's client id                 default ${DEFAULTS.clientId}
  SIM_CLIENT_SECRET        its client secret (also SIM_CLIENT_SECRET_FILE)  default ${DEFAULTS.clientSecret}
  SIM_STORE_ID             the store's id in the Rappi app             default ${DEFAULTS.storeId}
  SIM_STORE_INTEGRATION_ID the integrator's id for the store           default ${DEFAULTS.storeIntegrationId}
  SIM_READ_INTERVAL_S      least seconds between reads of new orders   default ${DEFAULTS.readIntervalMs / 1000}
  SIM_TAKE_DEADLINE_S      seconds to take or reject before TIMEOUT    default ${DEFAULTS.takeDeadlineMs / 1000}
  SIM_WEBHOOK_ATTEMPTS     tries per webhook event (1 = no retry)      default ${DEFAULTS.webhookAttempts}
  SIM_WEBHOOK_RETRY_MS     first retry delay, doubled each time        default ${DEFAULTS.webhookRetryDelayMs}
`;

async function readSecret(env: NodeJS.ProcessEnv): Promise<string> {
  const file = env.SIM_CLIENT_SECRET_FILE?.trim();
  if (file) {
    const { readFile } = await import('node:fs/promises');
    return (await readFile(file, 'utf8')).trim();
  }
  return env.SIM_CLIENT_SECRET || DEFAULTS.clientSecret;
}

async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<RappiSimulator | undefined> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP);
    return undefined;
  }
  const simulator = await RappiSimulator.start({
    port: readWhole(env, 'SIM_PORT', 9741, 65535),
    host: env.SIM_HOST?.trim() || '127.0.0.1',
    clientId: env.SIM_CLIENT_ID || DEFAULTS.clientId,
    clientSecret: await readSecret(env),
    storeId: env.SIM_STORE_ID || DEFAULTS.storeId,
    storeIntegrationId: env.SIM_STORE_INTEGRATION_ID || DEFAULTS.storeIntegrationId,
    readIntervalMs: readWhole(env, 'SIM_READ_INTERVAL_S', DEFAULTS.readIntervalMs / 1000) * 1000,
    takeDeadlineMs: readWhole(env, 'SIM_TAKE_DEADLINE_S', DEFAULTS.takeDeadlineMs / 1000) * 1000,
    webhookAttempts: Math.max(1, readWhole(env, 'SIM_WEBHOOK_ATTEMPTS', DEFAULTS.webhookAttempts)),
    webhookRetryDelayMs: readWhole(env, 'SIM_WEBHOOK_RETRY_MS', DEFAULTS.webhookRetryDelayMs),
  });
  const { clientId, stores } = simulator.platform.options;
  console.log(`Rappi simulator on ${simulator.url} (store ${stores[0]?.id})`);
  console.log('Start the POS server with:');
  console.log(
    `  POS_RAPPI_API_URL=${simulator.url} POS_RAPPI_CLIENT_ID=${clientId} POS_RAPPI_CLIENT_SECRET=<SIM_CLIENT_SECRET> POS_RAPPI_STORE_ID=${stores[0]?.id}`,
  );
  console.log(
    `Place an order: curl -d '{"items":[{"sku":"1","price":45}],"client":{"first_name":"Ana"}}' ${simulator.url}/sim/orders`,
  );

  return simulator;
}

runSimulator(main);
