import type { Principal } from '../core/auth-guard';
import type { DeliveryChannel } from '../core/delivery-platform';

/**
 * Each platform is the user of its orders: a system user (users' ensureSystemUser), made when its
 * first order comes in, that the orders, their plates' stock moves and the reports by waiter name.
 */
const CHANNEL_USERS: Readonly<Record<DeliveryChannel, { id: string; name: string }>> = {
  ubereats: { id: '6f0c8a5e-2b1d-4e7a-9c3f-0a1b2c3d4e51', name: 'Uber Eats' },
  rappi: { id: '6f0c8a5e-2b1d-4e7a-9c3f-0a1b2c3d4e52', name: 'Rappi' },
};

export function channelUser(channel: DeliveryChannel): { id: string; name: string } {
  return CHANNEL_USERS[channel];
}

export function channelName(channel: DeliveryChannel): string {
  return CHANNEL_USERS[channel].name;
}

/** Who a platform's own acts (its order taken in, its cancellation) are recorded as, in the audit log too. */
export function channelPrincipal(channel: DeliveryChannel): Principal {
  const user = CHANNEL_USERS[channel];
  return { id: user.id, name: user.name, role: 'channel', permissions: new Set(), sessionId: '' };
}
