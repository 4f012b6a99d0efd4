// `--load`: a second process that keeps one core busy for as long as the bench runs, as PostgreSQL,
// phoenixd and Caddy busy a restaurant's box beside us. It does real work (hashing), never sleeps,
// and ends with its parent.
import { createHash } from 'node:crypto';

const block = Buffer.alloc(64 * 1024, 7);
let digest = Buffer.alloc(32);
function burn() {
  const until = Date.now() + 50;
  while (Date.now() < until) digest = createHash('sha256').update(block).update(digest).digest();
  // Yield between slices so the parent's disconnect ends this process.
  setImmediate(burn);
}
process.on('disconnect', () => process.exit(0));
burn();
