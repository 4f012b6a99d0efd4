import { RappiSimulator } from './simulator';

const HELP = `npm run rappi-sim [-- --help]

A simulated Rappi restaurant API (one store) for trying the POS by hand; its /sim/* controls are
listed in test/rappi-sim/control.ts. It prints the POS_RAPPI_* values to start the POS with.

Environment:
  SIM_PORT            port it listens on (127.0.0.1)          default 9780, 0 picks a free one
  SIM_CLIENT_ID       the integration's client id             default sim-rappi-client
  SIM_CLIENT_SECRET   the integration's client secret         default sim-rappi-secret
  SIM_STORE_ID        Rappi's id of the one store             default 900111
`;

function readPort(value: string | undefined): number {
  const port = Number(value?.trim() || 9780);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error('SIM_PORT must be an integer from 0 to 65535');
  return port;
}

async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP);
    return;
  }
  const simulator = await RappiSimulator.start({
    port: readPort(env.SIM_PORT),
    clientId: env.SIM_CLIENT_ID?.trim() || 'sim-rappi-client',
    clientSecret: env.SIM_CLIENT_SECRET?.trim() || 'sim-rappi-secret',
    storeId: env.SIM_STORE_ID?.trim() || '900111',
  });
  console.log(`Rappi simulator on ${simulator.url} (controls under ${simulator.url}/sim)`);
  console.log('Start the POS server with:');
  console.log(
    `  POS_RAPPI_API_URL=${simulator.url} POS_RAPPI_CLIENT_ID=${simulator.clientId} ` +
      `POS_RAPPI_CLIENT_SECRET=${simulator.clientSecret} POS_RAPPI_STORE_ID=${simulator.store.id}`,
  );
  const shutDown = () => void simulator.stop().then(() => process.exit(0));
  process.on('SIGINT', shutDown);
  process.on('SIGTERM', shutDown);
}

main(process.argv.slice(2), process.env).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
