// Draws the folder graph of src/ into docs/architecture.md (a Mermaid block between markers), from
// dependency-cruiser's reading of the code: `node scripts/architecture-graph.mjs` rewrites it, and
// `--check` (run by `npm run lint`) fails when the drawing no longer matches the code.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { LAYERS } = require('./architecture-layers.cjs');
const DOC = 'docs/architecture.md';
const START = '<!-- folder-graph:start (npm run architecture:graph) -->';
const END = '<!-- folder-graph:end -->';
const ROOT = 'composition root';

function folderOf(path) {
  const [, first, rest] = path.match(/^src\/([^/]+)(\/.*)?$/) ?? [];
  if (first === undefined) return undefined;
  if (first === 'cli' || (rest === undefined && first !== 'config.ts')) return ROOT;
  return first;
}

function folderEdges() {
  const output = execFileSync(
    'npx',
    ['depcruise', 'src', '--config', '.dependency-cruiser.cjs', '--include-only', '^src/', '-T', 'json'],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  const edges = new Map();
  for (const module of JSON.parse(output).modules) {
    const from = folderOf(module.source);
    for (const dependency of module.dependencies) {
      const to = folderOf(dependency.resolved);
      if (from === undefined || to === undefined || from === to) continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from).add(to);
    }
  }
  return edges;
}

/** Keeps an arrow only when no longer path already leads there: the picture shows the layering, not every import. */
function withoutImpliedArrows(edges) {
  const reaches = (from, to, skipDirect) => {
    const seen = new Set();
    const stack = [...(edges.get(from) ?? [])].filter((next) => !(skipDirect && next === to));
    while (stack.length > 0) {
      const node = stack.pop();
      if (node === to) return true;
      if (seen.has(node)) continue;
      seen.add(node);
      stack.push(...(edges.get(node) ?? []));
    }
    return false;
  };
  const kept = [];
  for (const [from, targets] of [...edges].sort(([a], [b]) => a.localeCompare(b))) {
    for (const to of [...targets].sort()) if (!reaches(from, to, true)) kept.push([from, to]);
  }
  return kept;
}

const id = (folder) => folder.replace(/[^a-z]/gi, '_');

function mermaid(edges) {
  const lines = ['```mermaid', 'flowchart BT'];
  for (const layer of [...LAYERS, { name: ROOT, folders: [ROOT] }]) {
    lines.push(`  subgraph layer_${id(layer.name)}["${layer.name}"]`);
    for (const folder of layer.folders) lines.push(`    ${id(folder)}["${folder}"]`);
    lines.push('  end');
  }
  for (const [from, to] of withoutImpliedArrows(edges)) lines.push(`  ${id(from)} --> ${id(to)}`);
  lines.push('```');
  return lines.join('\n');
}

const doc = readFileSync(DOC, 'utf8');
const start = doc.indexOf(START);
const end = doc.indexOf(END);
if (start < 0 || end < start) throw new Error(`${DOC} lacks the markers ${START} … ${END}`);
const drawn = `${doc.slice(0, start + START.length)}\n${mermaid(folderEdges())}\n${doc.slice(end)}`;
if (process.argv.includes('--check')) {
  if (drawn !== doc) {
    console.error(`${DOC}: the folder graph is out of date; run npm run architecture:graph and commit it.`);
    process.exit(1);
  }
} else {
  writeFileSync(DOC, drawn);
}
