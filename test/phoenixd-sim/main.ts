import { runSimulator } from '../helpers/sim-process';
import { PhoenixdSimulator } from './simulator';

const HELP = `npm run phoenixd-sim [-- --help]

A simulated phoenixd (regtest) for trying the POS by hand; see control.ts for its /sim/* controls.
It prints the PHOENIXD_* values to start the POS server with.

Environment:
  SIM_PORT            port it listens on (127.0.0.1)             default 9740, 0 picks a free one
  SIM_PASSWORD        its http password (Basic auth)             default sim-http-password
  SIM_LIMITED_PASSWORD  its http-password-limited-access (no payments)  default sim-limited-password
  SIM_LIQUIDITY_FEE_SAT the liquidity fee taken from each payment received  default 0
  SIM_BALANCE_SAT     the starting balance in satoshis           default 1000000
  SIM_WEBHOOK_URL     where it posts payment_received webhooks   default from the POS server's own
                      PORT and HOST: http://<HOST>:<PORT>/webhook/phoenixd (127.0.0.1 and 9154 when unset)
  SIM_WEBHOOK_SECRET  the key that signs the webhooks            default sim-webhook-secret
`;

/** Where the POS server started with the same environment answers: a wildcard address is reached locally. */
function defaultWebhookUrl(env: NodeJS.ProcessEnv): string {
  const host = env.HOST?.trim() || '127.0.0.1';
  const reachableHost = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  const urlHost = reachableHost.includes(':') ? `[${reachableHost}]` : reachableHost;
  return `http://${urlHost}:${readPort(env, 'PORT', 9154)}/webhook/phoenixd`;
}

function readPort(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const port = Number(env[name]?.trim() || fallback);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`${name} must be an integer from 0 to 65535`);
  }
  return port;
}

async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<PhoenixdSimulator | undefined> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP);
    return undefined;
  }
  const webhookUrl = env.SIM_WEBHOOK_URL?.trim() || defaultWebhookUrl(env);
  if (!URL.canParse(webhookUrl)) throw new Error('SIM_WEBHOOK_URL is not a URL');
  const balanceSat = Number(env.SIM_BALANCE_SAT ?? 1_000_000);
  if (!Number.isSafeInteger(balanceSat) || balanceSat < 0) {
    throw new Error('SIM_BALANCE_SAT must be a whole number of satoshis');
  }

  const liquidityFeeSat = Number(env.SIM_LIQUIDITY_FEE_SAT ?? 0);
  if (!Number.isSafeInteger(liquidityFeeSat) || liquidityFeeSat < 0) {
    throw new Error('SIM_LIQUIDITY_FEE_SAT must be a whole number of satoshis');
  }

  const simulator = await PhoenixdSimulator.start({
    port: readPort(env, 'SIM_PORT', 9740),
    password: env.SIM_PASSWORD || 'sim-http-password',
    limitedPassword: env.SIM_LIMITED_PASSWORD || 'sim-limited-password',
    liquidityFeeSat,
    balanceSat,
    webhookUrl,
    webhookSecret: env.SIM_WEBHOOK_SECRET || 'sim-webhook-secret',
  });
  console.log(`phoenixd simulator on ${simulator.url} (regtest, node ${simulator.node.nodeId})`);
  console.log('Start the POS server with:');
  console.log(
    `  PHOENIXD_URL=${simulator.url} PHOENIXD_PASSWORD=${simulator.password} PHOENIXD_WEBHOOK_SECRET=${simulator.webhookSecret}`,
  );
  console.log(`webhook -> ${simulator.webhookUrl}`);

  return simulator;
}

runSimulator(main);
