import { useEffect, useState } from 'preact/hooks';
import type { Ok } from '../../api/client';
import type { ChannelState } from '../../components/delivery/delivery-orders';

export type Plate = Ok<'/orders/{id}/dishes', 'get'>[number];
export type ChannelView = Ok<'/channels', 'get'>[number];
export type MenuDish = Ok<'/menu', 'get'>['categories'][number]['dishes'][number];
export type MenuCategory = { name: string; dishes: MenuDish[] };

/** The badge of each state: what needs a person stands out, what is over is quiet. */
export const STATE_BADGES: Record<ChannelState, string> = {
  held: 'danger',
  awaiting: 'warn',
  accepted: 'new',
  ready: 'ok',
  picked_up: 'neutral',
  delivered: 'neutral',
  denied: 'neutral',
  cancelled: 'neutral',
};

/** Under this, the countdown turns red. */
export const HURRY_SECONDS = 120;

/** 75 → "1:15". */
export function minutesAndSeconds(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** The current time, again every second while the screen is shown (the countdowns). */
export function useNow(): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** Like plates of an order as one line: "2 × Tacos al pastor", with their options and notes. */
export type PlateLine = { key: string; count: number; name: string; options: string[]; notes: string };

export function plateLines(plates: Plate[]): PlateLine[] {
  const lines = new Map<string, PlateLine>();
  for (const plate of plates) {
    if (plate.status === 'voided') continue;
    const options = plate.modifiers.map((option) => option.name);
    const key = JSON.stringify([plate.dish_id, options, plate.notes]);
    const line = lines.get(key);
    if (line) line.count += 1;
    else lines.set(key, { key, count: 1, name: plate.dish_name, options, notes: plate.notes });
  }
  return [...lines.values()];
}
