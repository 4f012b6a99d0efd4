import { networkInterfaces } from 'node:os';
import { type Static, Type } from 'typebox';
import type { Config } from '../config';

export const NetworkView = Type.Object({
  port: Type.Integer({ description: 'The port the server listens on', example: 3000 }),
  listens_on_lan: Type.Boolean({
    description: 'false when HOST is a loopback address: tablets cannot reach the server directly',
  }),
  lan_addresses: Type.Array(Type.String({ example: '192.168.1.20' }), {
    description: "The server's own IPv4 addresses on the local network (not internal ones)",
  }),
  allowed_hosts: Type.Array(Type.String({ example: 'pos.example.com' }), {
    description: 'The public host names of POS_ALLOWED_HOSTS, for a server reached through a proxy',
  }),
});
export type NetworkView = Static<typeof NetworkView>;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * The addresses a tablet could open, for the manager's onboarding QR code: a browser opened on
 * 127.0.0.1 cannot know the server's address on the restaurant's network, the server can.
 */
export function networkOf(config: Config, listeningPort: number | undefined): NetworkView {
  const lanAddresses = Object.values(networkInterfaces())
    .flatMap((addresses) => addresses ?? [])
    .filter((address) => address.family === 'IPv4' && !address.internal)
    .map((address) => address.address);
  return {
    port: listeningPort ?? config.port,
    listens_on_lan: !LOOPBACK_HOSTS.has(config.host) && !config.host.startsWith('127.'),
    lan_addresses: [...new Set(lanAddresses)],
    allowed_hosts: [...config.allowedHosts],
  };
}
