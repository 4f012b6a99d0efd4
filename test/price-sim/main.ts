import { PriceSimulator } from './simulator';

/** `npm run price-sim`: a local CoinGecko and Coinbase for trying the POS by hand; controls under /_sim/. */
const simulator = await PriceSimulator.start({ port: Number(process.env.PRICE_SIM_PORT ?? 0) });
console.log(`price simulator on ${simulator.url}`);
console.log(`  POS_RATE_SOURCE=coingecko POS_RATE_SOURCE_URL=${simulator.url}`);
console.log(`  POS_RATE_SOURCE=coinbase POS_RATE_SOURCE_URL=${simulator.url}`);
console.log(`  set a price: curl -X POST ${simulator.url}/_sim/price/MXN -d 1800000`);

const shutDown = () => void simulator.stop().then(() => process.exit(0));
process.on('SIGINT', shutDown);
process.on('SIGTERM', shutDown);
