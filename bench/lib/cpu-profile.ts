import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
};
type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

export type Hotspot = { where: string; selfPercent: number };

/** The functions where the profiled server spent its own time (self time), biggest first. */
export function topHotspots(profileDir: string, count = 15): Hotspot[] {
  const selfMicros = new Map<string, number>();
  let totalMicros = 0;
  for (const file of readdirSync(profileDir).filter((name) => name.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(readFileSync(join(profileDir, file), 'utf8')) as CpuProfile;
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    profile.samples.forEach((nodeId, index) => {
      const frame = nodes.get(nodeId)?.callFrame;
      if (!frame || frame.functionName === '(idle)') return;
      const micros = profile.timeDeltas[index] ?? 0;
      const key = describe(frame);
      selfMicros.set(key, (selfMicros.get(key) ?? 0) + micros);
      totalMicros += micros;
    });
  }
  return [...selfMicros.entries()]
    .sort(([, a], [, b]) => b - a)
    .slice(0, count)
    .map(([where, micros]) => ({ where, selfPercent: (100 * micros) / totalMicros }));
}

function describe(frame: ProfileNode['callFrame']): string {
  const name = frame.functionName || '(anonymous)';
  if (!frame.url) return name;
  const path = frame.url.startsWith('file://')
    ? relative(process.cwd(), new URL(frame.url).pathname)
    : frame.url;
  return `${name} ${path.replace(/^node_modules\//, '')}:${frame.lineNumber + 1}`;
}
