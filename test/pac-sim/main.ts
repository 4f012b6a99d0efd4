import { runSimulator } from '../helpers/sim-process';
import { PacSimulator } from './simulator';

const HELP = `npm run pac-sim [-- --help]

A simulated Facturapi (REST API v2, test mode) for trying the POS's e-invoicing by hand; its /sim/*
controls are listed in test/pac-sim/control.ts. It prints the POS_PAC_* values to start the POS with.

Environment:
  PAC_SIM_PORT   port it listens on (127.0.0.1)   default 9760, 0 picks a free one
  PAC_SIM_KEY    the secret key it accepts        default sk_test_pac_sim
`;

function readPort(value: string | undefined): number {
  const port = Number(value?.trim() || 9760);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error('PAC_SIM_PORT must be an integer from 0 to 65535');
  return port;
}

async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<PacSimulator | undefined> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP);
    return undefined;
  }
  const simulator = new PacSimulator({ key: env.PAC_SIM_KEY?.trim() || 'sk_test_pac_sim' });
  const url = await simulator.start(readPort(env.PAC_SIM_PORT));
  console.log(`Facturapi simulator on ${url} (controls under ${simulator.origin}/sim)`);
  console.log('Start the POS server with:');
  console.log(`  POS_PAC_URL=${url} POS_PAC_KEY=${simulator.key}`);
  return simulator;
}

runSimulator(main);
