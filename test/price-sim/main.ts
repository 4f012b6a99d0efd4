import { PriceSimulator } from './simulator';

const HELP = `npm run price-sim [-- --help]

A local CoinGecko and Coinbase for trying Lightning bills by hand: it answers the BTC price each
provider's API would, and prints the POS_RATE_SOURCE and POS_RATE_SOURCE_URL to start the POS with.
Controls: POST /_sim/price/<CODE> with a JSON value (DELETE removes it), POST /_sim/mode with
{"mode":"ok"|"error"|"garbage"}, GET /_sim/requests.

Environment:
  PRICE_SIM_PORT  port it listens on (127.0.0.1)   default 0: any free port, printed at start
`;

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  process.stdout.write(HELP);
  process.exit(0);
}

/** `npm run price-sim`: a local CoinGecko and Coinbase for trying the POS by hand; controls under /_sim/. */
const simulator = await PriceSimulator.start({ port: Number(process.env.PRICE_SIM_PORT ?? 0) });
console.log(`price simulator on ${simulator.url}`);
console.log(`  POS_RATE_SOURCE=coingecko POS_RATE_SOURCE_URL=${simulator.url}`);
console.log(`  POS_RATE_SOURCE=coinbase POS_RATE_SOURCE_URL=${simulator.url}`);
console.log(`  set a price: curl -X POST ${simulator.url}/_sim/price/MXN -d 1800000`);

const shutDown = () => void simulator.stop().then(() => process.exit(0));
process.on('SIGINT', shutDown);
process.on('SIGTERM', shutDown);
