// `npm start`: runs the compiled server with plain `node`, building dist/ first when it is missing or
// older than the sources. The server runs in this very process (npm's script shell execs it), so
// a SIGTERM sent to `npm start`, which npm forwards to its child, reaches the server itself.
// `node scripts/start.mjs migrate|pos|seed` does the same for the migrations, the admin CLI and the seed.
import { pathToFileURL } from 'node:url';
import { build, entryPoints, isStale, outputOf } from './build.mjs';

const entry = process.argv[2] ?? 'server';
if (!(entry in entryPoints)) {
  console.error(`Unknown entry "${entry}": one of ${Object.keys(entryPoints).join(', ')}`);
  process.exit(1);
}
// What follows the entry's name is the entry's own command line (`npm run pos -- create-user …`).
process.argv.splice(2, 1);

if (await isStale()) {
  try {
    await build();
  } catch (error) {
    const reason =
      error?.code === 'ERR_MODULE_NOT_FOUND' ? 'esbuild is not installed (run npm ci)' : error.message;
    console.error(`Cannot build dist/: ${reason}`);
    process.exit(1);
  }
}

// Stack traces then name the TypeScript sources, not the bundle.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(outputOf(entry)).href);
