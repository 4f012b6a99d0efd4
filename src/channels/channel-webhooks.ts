import type { AppContext } from '../core/context';
import type { DeliveryPlatform } from '../core/delivery-platform';
import * as channels from './channels.repo';

/** Where a platform's webhooks reach this server, when it has a public address. */
function webhookUrlOf(ctx: AppContext, platform: DeliveryPlatform): string | undefined {
  const { publicUrl } = ctx.config;
  return publicUrl === undefined ? undefined : `${publicUrl}/channels/${platform.channel}/webhook`;
}

/**
 * Registers the store's webhooks where the platform takes them through its API (Rappi) and the server
 * has a public URL (POS_PUBLIC_URL): each event once, and again when the URL changed or an earlier
 * registration failed. Orders are read either way; webhooks only bring them sooner. Each event's
 * secret is kept as soon as the platform gives it, so a failure on the next event loses nothing.
 */
export async function registerWebhooks(ctx: AppContext, platform: DeliveryPlatform): Promise<void> {
  const url = webhookUrlOf(ctx, platform);
  if (platform.webhooks === undefined || url === undefined) return;
  const kept = await channels.findWebhooks(ctx.db, platform.channel);
  for (const event of platform.webhooks.events) {
    if (kept.some((webhook) => webhook.event === event && webhook.url === url)) continue;
    const { secret } = await platform.webhooks.register(event, url);
    await channels.saveWebhook(ctx.db, {
      channel: platform.channel,
      event,
      url,
      secret,
      registered_at: ctx.clock.now(),
    });
  }
}
