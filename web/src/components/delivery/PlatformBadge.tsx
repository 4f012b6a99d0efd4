import { isPlatform, PLATFORM_NAMES } from './delivery-orders';

/** Uber Eats or Rappi in its colour (black on green, white on red: both past WCAG AA), with its name. */
export function PlatformBadge({ channel }: { channel: string }) {
  if (!isPlatform(channel)) return null;
  return <span class={`platform-badge platform-${channel}`}>{PLATFORM_NAMES[channel]}</span>;
}
