import type { Config } from '../config';
import type { DeliveryPlatforms } from '../core/delivery-platform';
import { RappiClient } from './rappi.client';
import { UberEatsClient } from './ubereats.client';

/** A client for each platform whose credentials and store are configured; the others are absent. */
export function deliveryPlatformsFromConfig(
  deliveryApps: Config['deliveryApps'],
  now: () => number,
): DeliveryPlatforms {
  const { ubereats, rappi } = deliveryApps;
  return Object.freeze({
    ...(ubereats !== undefined && { ubereats: new UberEatsClient({ ...ubereats, now }) }),
    ...(rappi !== undefined && { rappi: new RappiClient({ ...rappi, now }) }),
  });
}
