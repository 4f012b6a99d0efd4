import { PhoenixdSimulator } from './simulator';

/**
 * `npm run phoenixd-sim`: a simulated phoenixd for trying the POS by hand. Point the POS at it with
 * PHOENIXD_URL, PHOENIXD_PASSWORD and PHOENIXD_WEBHOOK_SECRET; see control.ts for its controls.
 */
const env = process.env;
const simulator = await PhoenixdSimulator.start({
  port: Number(env.SIM_PORT ?? 9740),
  password: env.SIM_PASSWORD ?? 'sim-http-password',
  balanceSat: Number(env.SIM_BALANCE_SAT ?? 1_000_000),
  webhookUrl: env.SIM_WEBHOOK_URL ?? 'http://127.0.0.1:9154/webhook/phoenixd',
  webhookSecret: env.SIM_WEBHOOK_SECRET ?? 'sim-webhook-secret',
});
console.log(`phoenixd simulator on ${simulator.url} (regtest, node ${simulator.node.nodeId})`);
console.log(
  `  PHOENIXD_URL=${simulator.url} PHOENIXD_PASSWORD=${simulator.password} PHOENIXD_WEBHOOK_SECRET=${simulator.webhookSecret}`,
);
console.log(`  webhook -> ${simulator.webhookUrl}`);

const shutDown = () => void simulator.stop().then(() => process.exit(0));
process.on('SIGINT', shutDown);
process.on('SIGTERM', shutDown);
