/**
 * The server's layers, lowest first. A folder imports its own layer and the ones below, never one
 * above; inside a layer, the folder graph has no cycle. The composition root (app.ts, create-context.ts,
 * server.ts, migrate.ts, cli/) sits on top and is the one place that knows every room.
 */
const LAYERS = [
  { name: 'foundation', folders: ['config.ts', 'core'] },
  {
    name: 'platform',
    folders: [
      'permissions',
      'audit',
      'events',
      'settings',
      'general',
      'lightning',
      'rates',
      'pac',
      'delivery-apps',
      'card-terminals',
      'printing',
      'backups',
      'web',
    ],
  },
  { name: 'people', folders: ['users', 'roles', 'auth', 'approvals'] },
  { name: 'catalogue', folders: ['categories', 'inventory', 'modifiers', 'menu'] },
  { name: 'floor', folders: ['spaces', 'tables'] },
  { name: 'service', folders: ['orders', 'kitchen'] },
  { name: 'checkout', folders: ['shifts', 'wallet', 'tickets', 'payments'] },
  {
    name: 'after-sale',
    folders: ['fiscal', 'receipts', 'guest', 'displays', 'reports', 'webhooks', 'setup', 'channels'],
  },
];
module.exports = { LAYERS };
