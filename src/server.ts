import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { lastBackupAt } from './backups/scheduled-backups';
import { type Config, ConfigError, loadConfig } from './config';
import { listenWhileMigrating, type MigratingListener } from './core/migrating-listener';
import {
  describeBuildFailure,
  describeConfigFailure,
  describeListenFailure,
  describeUnsupportedNode,
  startupSummary,
} from './core/startup';
import { probeLightningNode } from './lightning/node-probe';

/**
 * A start that cannot proceed prints one line naming the cause and exits 1: an operator needs the
 * reason, not a stack trace. The stack follows only with LOG_LEVEL=debug or trace, for what is a bug.
 */
function fail(line: string, error: unknown, config?: Config): never {
  console.error(line);
  if (config && ['debug', 'trace'].includes(config.logLevel)) console.error(error);
  process.exit(1);
}

async function main(): Promise<void> {
  const unsupported = describeUnsupportedNode();
  if (unsupported) fail(unsupported, undefined);
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(describeConfigFailure(error), error);
    throw error;
  }

  let app: FastifyInstance;
  // An upgrade's schema migrations can take minutes on a year of data: the port answers meanwhile.
  let migrating: MigratingListener | undefined;
  try {
    app = await buildApp(config, {
      onSchemaUpgrade: async () => {
        migrating = await listenWhileMigrating(config.port, config.host);
      },
    });
  } catch (error) {
    await migrating?.close();
    fail(describeBuildFailure(error, config), error, config);
  }
  closeOnSignals(app);
  try {
    await migrating?.close();
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await app.close().catch(() => {});
    fail(describeListenFailure(error, config), error, config);
  }
  const lightning = await probeLightningNode(config.phoenixd);
  const summary = startupSummary(config, {
    address: app.server.address(),
    hasAdmin: app.hadAdminAtStart,
    restaurant: app.restaurantAtStart,
    lightning,
    lastBackupAt: config.backups.dir === undefined ? null : lastBackupAt(config.backups.dir),
  });
  console.log(summary.join('\n'));
}

/**
 * Stop taking connections, let in-flight requests finish, then close the database. A second signal
 * changes nothing: Ctrl-C under `npm start` reaches the server twice (from the terminal and from npm),
 * and must not cut the drain short. SIGKILL is there to force it.
 */
function closeOnSignals(app: FastifyInstance): void {
  let isClosing = false;
  const close = (signal: NodeJS.Signals) => {
    if (isClosing) return;
    isClosing = true;
    app.log.info({ signal }, 'shutting down');
    app.close().then(
      () => process.exit(0),
      (error) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', close);
  process.on('SIGINT', close);
}

main().catch((error) => fail(`Start-up failed: ${(error as Error).message}`, error));
