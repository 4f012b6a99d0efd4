// Compiles the server to plain JavaScript in dist/, so production runs on `node` without a TypeScript
// loader. esbuild rather than tsc: tsc would keep our extensionless imports, which Node's ES module
// loader refuses, and esbuild bundles each entry point into one file in a fraction of a second.
// Packages stay external: node_modules is resolved at run time, native modules included.
import { mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const entryPoints = {
  server: 'src/server.ts',
  migrate: 'src/migrate.ts',
  pos: 'src/cli/main.ts',
  seed: 'src/cli/seed.ts',
};
const outdir = join(root, 'dist');
/** Besides src/, what changes the output. */
const inputs = ['package.json', 'package-lock.json', 'scripts/build.mjs'];

export function outputOf(entry) {
  return join(outdir, `${entry}.js`);
}

/** Whether some input changed after the oldest output was written (or an output is missing). */
export async function isStale() {
  const builtAt = Math.min(...Object.keys(entryPoints).map((entry) => mtimeOf(outputOf(entry))));
  if (builtAt === 0) return true;
  // A runtime image carries dist/ without the sources: nothing to compare, nothing to rebuild.
  const sources = await readdir(join(root, 'src'), { recursive: true }).catch(() => []);
  return [...sources.map((file) => join('src', file)), ...inputs].some(
    (file) => mtimeOf(join(root, file)) > builtAt,
  );
}

function mtimeOf(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

export async function build() {
  const esbuild = await import('esbuild');
  const { outputFiles } = await esbuild.build({
    absWorkingDir: root,
    entryPoints,
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    packages: 'external',
    sourcemap: true,
    sourcesContent: false,
    logLevel: 'warning',
    write: false,
  });
  mkdirSync(outdir, { recursive: true });
  // Each file is written beside its place and renamed into it: a server starting (or a second
  // build running) at the same moment sees the old file or the new one, never half of one.
  for (const file of outputFiles) {
    const temporary = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temporary, file.contents);
    renameSync(temporary, file.path);
  }
  return outputFiles.map((file) => relative(root, file.path));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const written = await build();
  console.log(`Built ${written.filter((file) => file.endsWith('.js')).join(', ')}`);
}
