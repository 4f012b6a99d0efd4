import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
};
type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

export type Hotspot = { where: string; selfPercent: number; selfMicros: number };

/** The functions where the profiled server spent its own time (self time), biggest first. */
export function topHotspots(
  profileDir: string,
  count = 15,
  onlyFiles?: (name: string) => boolean,
): Hotspot[] {
  return selfTimeShares(profileDir, describe, onlyFiles).slice(0, count);
}

/** The same self time summed per package (`kysely`, `fastify`, …), `src` for our code, `node` for Node's. */
export function selfTimeByPackage(profileDir: string, onlyFiles?: (name: string) => boolean): Hotspot[] {
  return selfTimeShares(profileDir, packageOf, onlyFiles);
}

function selfTimeShares(
  profileDir: string,
  keyOf: (frame: ProfileNode['callFrame']) => string,
  onlyFiles: (name: string) => boolean = () => true,
): Hotspot[] {
  const selfMicros = new Map<string, number>();
  let totalMicros = 0;
  const files = readdirSync(profileDir).filter((name) => name.endsWith('.cpuprofile') && onlyFiles(name));
  for (const file of files) {
    const profile = JSON.parse(readFileSync(join(profileDir, file), 'utf8')) as CpuProfile;
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    profile.samples.forEach((nodeId, index) => {
      const frame = nodes.get(nodeId)?.callFrame;
      if (!frame || frame.functionName === '(idle)') return;
      const micros = profile.timeDeltas[index] ?? 0;
      const key = keyOf(frame);
      selfMicros.set(key, (selfMicros.get(key) ?? 0) + micros);
      totalMicros += micros;
    });
  }
  return [...selfMicros.entries()]
    .sort(([, a], [, b]) => b - a)
    .map(([where, micros]) => ({ where, selfPercent: (100 * micros) / totalMicros, selfMicros: micros }));
}

function describe(frame: ProfileNode['callFrame']): string {
  const name = frame.functionName || '(anonymous)';
  if (!frame.url) return name;
  const path = frame.url.startsWith('file://')
    ? relative(process.cwd(), new URL(frame.url).pathname)
    : frame.url;
  return `${name} ${path.replace(/^node_modules\//, '')}:${frame.lineNumber + 1}`;
}

function packageOf(frame: ProfileNode['callFrame']): string {
  const packageName = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(frame.url)?.[1];
  if (packageName) return packageName;
  if (frame.url.includes('/src/') || frame.url.includes('/dist/')) return 'src (our code)';
  if (frame.url.includes('/bench/lib/statement-census')) return 'the census (measuring)';
  if (frame.url.includes('/bench/baseline/')) return 'bench/baseline (its code)';
  if (frame.url.includes('/bench/')) return 'bench';
  if (frame.url.startsWith('node:') || frame.url === '') return `node: ${frame.functionName || '(native)'}`;
  return frame.url;
}
