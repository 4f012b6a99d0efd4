// Compiles the server to plain JavaScript in dist/, so production runs on `node` without a TypeScript
// loader. esbuild rather than tsc: tsc would keep our extensionless imports, which Node's ES module
// loader refuses, and esbuild bundles each entry point into one file in a fraction of a second.
// Packages stay external: node_modules is resolved at run time, native modules included.
import { cpSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const entryPoints = {
  server: 'src/server.ts',
  migrate: 'src/migrate.ts',
  pos: 'src/cli/main.ts',
  seed: 'src/cli/seed.ts',
};
const outdir = join(root, 'dist');
export const webOutdir = join(outdir, 'web');
/** The guest's page (GET /g/{token}), built apart so a public site exposes it and none of the staff app. */
export const guestOutdir = join(webOutdir, 'guest');
/** Besides the source folders, what changes the output. */
const inputs = ['package.json', 'package-lock.json', 'scripts/build.mjs'];
const sourceFolders = ['src', 'web'];

export function outputOf(entry) {
  return join(outdir, `${entry}.js`);
}

/** Whether some input changed after the oldest output was written (or an output is missing). */
export async function isStale() {
  const outputs = [
    ...Object.keys(entryPoints).map(outputOf),
    join(webOutdir, 'index.html'),
    join(guestOutdir, 'index.html'),
  ];
  const builtAt = Math.min(...outputs.map(mtimeOf));
  if (builtAt === 0) return true;
  // A runtime image carries dist/ without the sources: nothing to compare, nothing to rebuild.
  const sources = [];
  for (const folder of sourceFolders) {
    const files = await readdir(join(root, folder), { recursive: true }).catch(() => []);
    sources.push(...files.map((file) => join(folder, file)));
  }
  return [...sources, ...inputs].some((file) => mtimeOf(join(root, file)) > builtAt);
}

function mtimeOf(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

export async function build() {
  try {
    return [...(await buildServer()), ...(await buildWeb()), ...(await buildGuestPage())];
  } finally {
    // esbuild keeps a service process for later builds; `npm start` builds once, then serves for
    // days, so the service would sit beside the server for nothing.
    (await import('esbuild')).stop();
  }
}

async function buildServer() {
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
  return writeAtomically(outputFiles);
}

/**
 * The web app (web/) for browsers: code-split ES modules with content-hashed names, so a tablet
 * caches each file for good and fetches only what changed. index.html and the service worker keep
 * fixed names; the worker is given the list of files to keep for offline use.
 */
export async function buildWeb() {
  const esbuild = await import('esbuild');
  const common = { absWorkingDir: root, bundle: true, minify: true, target: 'es2020', logLevel: 'warning' };
  const app = await esbuild.build({
    ...common,
    entryPoints: { app: 'web/src/main.tsx' },
    outdir: join(webOutdir, 'assets'),
    entryNames: '[name]-[hash]',
    chunkNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    format: 'esm',
    splitting: true,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    metafile: true,
    write: false,
  });
  const assets = app.outputFiles.map((file) => relative(webOutdir, file.path));
  // The app's own entry: each lazily imported screen is an entry point of the metafile too.
  const entry = Object.entries(app.metafile.outputs).find(
    ([, output]) => output.entryPoint === 'web/src/main.tsx',
  );
  const script = relative(webOutdir, join(root, entry[0]));
  const stylesheet = entry[1].cssBundle && relative(webOutdir, join(root, entry[1].cssBundle));
  const html = readFileSync(join(root, 'web', 'index.html'), 'utf8')
    .replace('<!-- stylesheet -->', stylesheet ? `<link rel="stylesheet" href="/app/${stylesheet}">` : '')
    .replace('<!-- script -->', `<script type="module" src="/app/${script}"></script>`);
  const publicFiles = await readdir(join(root, 'web', 'public'));
  const worker = await esbuild.build({
    ...common,
    entryPoints: ['web/src/service-worker.ts'],
    format: 'iife',
    define: {
      SHELL_FILES: JSON.stringify(['/app/', ...[...publicFiles, ...assets].map((file) => `/app/${file}`)]),
      SHELL_VERSION: JSON.stringify(script),
    },
    write: false,
  });
  cpSync(join(root, 'web', 'public'), webOutdir, { recursive: true });
  writeAtomically(
    withCompressed(
      publicFiles.map((file) => ({
        path: join(webOutdir, file),
        contents: readFileSync(join(webOutdir, file)),
      })),
    ).filter((file) => file.path.endsWith('.br') || file.path.endsWith('.gz')),
  );
  const files = withCompressed([
    ...app.outputFiles,
    { path: join(webOutdir, 'service-worker.js'), contents: worker.outputFiles[0].contents },
    // Written last: its presence is what isStale() and the server take as "the app is built".
    { path: join(webOutdir, 'index.html'), contents: Buffer.from(html) },
  ]);
  const written = writeAtomically(files);
  // Files of earlier builds go once the new index.html no longer names them.
  for (const file of await readdir(join(webOutdir, 'assets'))) {
    const original = file.replace(/\.(br|gz)$/, '');
    if (!assets.includes(`assets/${original}`)) rmSync(join(webOutdir, 'assets', file), { force: true });
  }
  return written;
}

/**
 * The guest's page: its own entry, its own HTML and its own assets under /g/assets/, bundled apart
 * from the staff app (no shared chunk), so the public site exposes /g/ and /guest/ and nothing else.
 * No service worker: a guest's phone opens it once, online.
 */
export async function buildGuestPage() {
  const esbuild = await import('esbuild');
  const assetsDir = join(guestOutdir, 'assets');
  const page = await esbuild.build({
    absWorkingDir: root,
    bundle: true,
    minify: true,
    target: 'es2020',
    logLevel: 'warning',
    entryPoints: { guest: 'web/src/guest/main.tsx' },
    outdir: assetsDir,
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    format: 'esm',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    metafile: true,
    write: false,
  });
  const assets = page.outputFiles.map((file) => relative(assetsDir, file.path));
  const entry = Object.entries(page.metafile.outputs).find(([, output]) => output.entryPoint);
  const script = relative(assetsDir, join(root, entry[0]));
  const stylesheet = entry[1].cssBundle && relative(assetsDir, join(root, entry[1].cssBundle));
  const html = readFileSync(join(root, 'web', 'guest.html'), 'utf8')
    .replace(
      '<!-- stylesheet -->',
      stylesheet ? `<link rel="stylesheet" href="/g/assets/${stylesheet}">` : '',
    )
    .replace('<!-- script -->', `<script type="module" src="/g/assets/${script}"></script>`);
  const written = writeAtomically(
    withCompressed([
      ...page.outputFiles,
      // Written last, as the staff app's: its presence marks a complete build.
      { path: join(guestOutdir, 'index.html'), contents: Buffer.from(html) },
    ]),
  );
  for (const file of await readdir(assetsDir)) {
    if (!assets.includes(file.replace(/\.(br|gz)$/, ''))) rmSync(join(assetsDir, file), { force: true });
  }
  return written;
}

const COMPRESSIBLE = /\.(js|css|html|svg|json|webmanifest|txt)$/;

/**
 * Each text file with its brotli and gzip versions beside it, made once here at the highest levels
 * instead of at every request: the server sends the one the browser accepts (@fastify/static's
 * preCompressed). Each compressed file comes before its original, so index.html, written last,
 * still marks a complete build.
 */
function withCompressed(files) {
  return files.flatMap((file) => {
    if (!COMPRESSIBLE.test(file.path)) return [file];
    const brotli = brotliCompressSync(file.contents, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: file.contents.length,
      },
    });
    const gzip = gzipSync(file.contents, { level: constants.Z_BEST_COMPRESSION });
    return [{ path: `${file.path}.br`, contents: brotli }, { path: `${file.path}.gz`, contents: gzip }, file];
  });
}

/**
 * Each file is written beside its place and renamed into it: a server starting (or a second build
 * running) at the same moment sees the old file or the new one, never half of one.
 */
function writeAtomically(outputFiles) {
  for (const file of outputFiles) {
    mkdirSync(dirname(file.path), { recursive: true });
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
