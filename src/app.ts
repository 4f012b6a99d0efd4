import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { approvalsRoutes } from './approvals/approvals.routes';
import { auditRoutes } from './audit/audit.routes';
import { publishAuditHead } from './audit/audit.service';
import { authRoutes } from './auth/auth.routes';
import { registerScheduledBackups } from './backups/scheduled-backups';
import { categoriesRoutes } from './categories/categories.routes';
import {
  CHANNEL_CALLS,
  CHANNEL_CALLS_INTERVAL_MS,
  CHANNEL_INBOX,
  CHANNEL_INBOX_INTERVAL_MS,
  CHANNEL_WATCH,
  CHANNEL_WATCH_INTERVAL_MS,
  sendDueCalls,
  takeInPending,
  watchChannels,
} from './channels/channel-jobs';
import { channelsRoutes } from './channels/channels.routes';
import type { Config } from './config';
import { authGuard } from './core/auth-guard';
import { type Clock, systemClock } from './core/clock';
import type { AppContext } from './core/context';
import { type Backfill, runBackfills } from './core/db/backfills';
import {
  type DatabaseHandle,
  hasPendingMigrations,
  hasSchema,
  migrateSchema,
  openDatabase,
} from './core/db/database';
import { backfills } from './core/db/migrations';
import { INTERNAL_ERROR_BODY, registerErrorHandling } from './core/error-handler';
import { Jobs } from './core/jobs';
import { acceptEmptyJsonBodies } from './core/json-body';
import { loggerOptions } from './core/logging';
import { registerOpenApi } from './core/openapi';
import { refuseUnknownHosts, registerSecurity } from './core/security';
import { closeGracefully } from './core/shutdown';
import type { RestaurantFact } from './core/startup';
import { describeProgress, serveWhileBackfilling } from './core/upgrade';
import { serializerCompiler, validatorCompiler } from './core/validation';
import { createContext } from './create-context';
import { displaysRoutes } from './displays/displays.routes';
import { registerEventJobs } from './events/event-jobs';
import { eventsRoutes } from './events/events.routes';
import { fiscalRoutes } from './fiscal/fiscal.routes';
import { FISCAL_JOB, FISCAL_JOB_INTERVAL_MS, runFiscalJob } from './fiscal/fiscal-job';
import { generalRoutes } from './general/general.routes';
import { guestLinksRoutes, guestRoutes } from './guest/guest.routes';
import { inventoryRoutes } from './inventory/inventory.routes';
import { kitchenRoutes } from './kitchen/kitchen.routes';
import { menuRoutes } from './menu/menu.routes';
import { modifiersRoutes } from './modifiers/modifiers.routes';
import { floorMovesRoutes } from './orders/floor-moves.routes';
import { orderDishesRoutes } from './orders/order-dishes.routes';
import { orderFiltersRoutes } from './orders/order-filters.routes';
import { ordersRoutes } from './orders/orders.routes';
import { cardTerminalRoutes } from './payments/card-terminal.routes';
import { watchTerminalCharges } from './payments/card-terminal-settlement.service';
import {
  catchUpLightningPayments,
  settleByHash,
  sweepLightningPayments,
} from './payments/lightning-settlement.service';
import { paymentsRoutes } from './payments/payments.routes';
import { authorizeRoute, permissionNote, permissionOfRoute } from './permissions/route-permissions';
import {
  PRINT_JOBS,
  PRINT_JOBS_INTERVAL_MS,
  PRUNE_PRINT_JOBS,
  PRUNE_PRINT_JOBS_INTERVAL_MS,
  pruneFinishedPrintJobs,
  sendDuePrintJobs,
} from './printing/print-queue';
import { printersRoutes } from './printing/printers.routes';
import type { RateSource } from './rates/exchange-rate';
import { ratesRoutes } from './rates/rates.routes';
import { receiptsRoutes } from './receipts/receipts.routes';
import { reportsRoutes } from './reports/reports.routes';
import { rolesRoutes } from './roles/roles.routes';
import { settingsRoutes } from './settings/settings.routes';
import { setupRoutes } from './setup/setup.routes';
import { bootstrapAdminFromConfig, isInitialized, restaurantAtStart } from './setup/setup.service';
import { shiftsRoutes } from './shifts/shifts.routes';
import { spacesRoutes } from './spaces/spaces.routes';
import { tablesRoutes } from './tables/tables.routes';
import { cancelBillsOfOrder } from './tickets/bill-cancellation';
import { ticketsRoutes } from './tickets/tickets.routes';
import { findPrincipal } from './users/sessions.repo';
import { usersRoutes } from './users/users.routes';
import { walletFeature } from './wallet/wallet.feature';
import { guestPageRoutes, webAppRoutes } from './web/web.routes';
import {
  deliverWebhooks,
  PRUNE_WEBHOOK_DELIVERIES,
  PRUNE_WEBHOOK_DELIVERIES_INTERVAL_MS,
  pruneFinishedDeliveries,
  WEBHOOK_DELIVERIES,
  WEBHOOK_DELIVERIES_INTERVAL_MS,
} from './webhooks/webhook-queue';
import { httpWebhookTransport } from './webhooks/webhook-sender';
import { webhooksRoutes } from './webhooks/webhooks.routes';

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether a user existed once start-up finished: the start-up summary says how to create one. */
    hadAdminAtStart: boolean;
    /** The settings as start-up found them, for the summary. */
    restaurantAtStart: RestaurantFact;
  }
}

export type AppOverrides = {
  /** A database the caller opened and will close (tests hold it to inspect stored state). */
  database?: DatabaseHandle;
  clock?: Clock;
  /** Where log lines go; tests capture them to prove secrets are redacted. */
  logStream?: NodeJS.WritableStream;
  /** Where the BTC price comes from, instead of POS_RATE_SOURCE (tests make it fail on cue). */
  rateSource?: RateSource;
  /** false: background jobs run only when asked (`app.jobs.run(name)`); tests want that. */
  startJobs?: boolean;
  /** The backfills a migration may schedule (core/db/backfills.ts); tests hold one mid-way. */
  backfills?: Readonly<Record<string, Backfill>>;
  /** Called before an upgrade's schema migrations run (not on a first install nor a plain restart). */
  onSchemaUpgrade?: () => Promise<void>;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** The application's background jobs, e.g. `lightning-sweep`. */
    jobs: Jobs;
  }
}

/** Asks the node about pending Lightning payments; the contract wants at least every 10 s. */
export const LIGHTNING_SWEEP = 'lightning-sweep';
const LIGHTNING_SWEEP_INTERVAL_MS = 5000;
/** Reads the node's paid payments for bills whose webhook was lost, however late they were paid. */
export const LIGHTNING_CATCH_UP = 'lightning-catch-up';
const LIGHTNING_CATCH_UP_INTERVAL_MS = 30_000;
/** Reads card-terminal charges back: those a notification marked, and each one still moving every few seconds. */
export const CARD_TERMINAL_WATCH = 'card-terminal-watch';
const CARD_TERMINAL_WATCH_INTERVAL_MS = 1000;
/** Publishes the audit chain's head outside the database, so a rollback past it shows. */
export const PUBLISH_AUDIT_HEAD = 'publish-audit-head';
const PUBLISH_AUDIT_HEAD_INTERVAL_MS = 60_000;

/**
 * Builds the whole application: database migrated, every feature registered. The backfills an upgrade
 * scheduled run on after it returns (core/upgrade.ts); until they end only /health serves.
 */
export async function buildApp(config: Config, overrides: AppOverrides = {}): Promise<FastifyInstance> {
  const database = overrides.database ?? openDatabase(config.databaseUrl);
  try {
    const app = createServer(config, overrides.logStream);
    // A first install's migrations take no time and would only fill the log.
    const isUpgrade = await hasSchema(database.db);
    if (isUpgrade && (await hasPendingMigrations(database.db))) await overrides.onSchemaUpgrade?.();
    await migrateSchema(database.db, (progress) => isUpgrade && app.log.info(describeProgress(progress)));
    const clock = overrides.clock ?? systemClock;
    const ctx = await createContext(config, database, clock, overrides.rateSource);
    await bootstrapAdminFromConfig(ctx);

    ctx.rates.useLog(app.log);
    app.decorate('hadAdminAtStart', await isInitialized(ctx));
    app.decorate('restaurantAtStart', await restaurantAtStart(ctx));
    answerOnlyWhatIsOnDisk(app, database);
    const registry = overrides.backfills ?? backfills;
    // A first install has no rows to rewrite: its backfills end at once, before anyone is answered.
    if (!isUpgrade) await runBackfills(database.db as Kysely<unknown>, registry);
    await serveWhileBackfilling(app, database.db as Kysely<unknown>, registry);
    registerJobs(app, ctx, overrides.startJobs ?? true);
    closeGracefully(app, overrides.database ? undefined : database);
    await registerPlugins(app, ctx);
    return app;
  } catch (error) {
    if (!overrides.database) await database.close();
    throw error;
  }
}

/** Jobs start with the app and stop when closing begins, long before the database closes. */
function registerJobs(app: FastifyInstance, ctx: AppContext, isStarted: boolean): void {
  const jobs = new Jobs(app.log);
  jobs.register(LIGHTNING_SWEEP, LIGHTNING_SWEEP_INTERVAL_MS, () => sweepLightningPayments(ctx));
  jobs.register(LIGHTNING_CATCH_UP, LIGHTNING_CATCH_UP_INTERVAL_MS, () => catchUpLightningPayments(ctx));
  jobs.register(CARD_TERMINAL_WATCH, CARD_TERMINAL_WATCH_INTERVAL_MS, () => watchTerminalCharges(ctx));
  jobs.register(PRINT_JOBS, PRINT_JOBS_INTERVAL_MS, () => sendDuePrintJobs(ctx));
  jobs.register(PRUNE_PRINT_JOBS, PRUNE_PRINT_JOBS_INTERVAL_MS, () => pruneFinishedPrintJobs(ctx));
  registerEventJobs(jobs, ctx);
  registerScheduledBackups(jobs, ctx.config, app.log);
  jobs.register(WEBHOOK_DELIVERIES, WEBHOOK_DELIVERIES_INTERVAL_MS, () =>
    deliverWebhooks(ctx, httpWebhookTransport),
  );
  jobs.register(PRUNE_WEBHOOK_DELIVERIES, PRUNE_WEBHOOK_DELIVERIES_INTERVAL_MS, () =>
    pruneFinishedDeliveries(ctx),
  );
  jobs.register(FISCAL_JOB, FISCAL_JOB_INTERVAL_MS, () => runFiscalJob(ctx));
  jobs.register(CHANNEL_INBOX, CHANNEL_INBOX_INTERVAL_MS, () => takeInPending(ctx));
  jobs.register(CHANNEL_CALLS, CHANNEL_CALLS_INTERVAL_MS, () => sendDueCalls(ctx));
  jobs.register(CHANNEL_WATCH, CHANNEL_WATCH_INTERVAL_MS, () => watchChannels(ctx));
  jobs.register(PUBLISH_AUDIT_HEAD, PUBLISH_AUDIT_HEAD_INTERVAL_MS, async () => {
    if (!(await publishAuditHead(ctx.db, ctx.clock.now()))) {
      app.log.error('the audit chain is behind the head published outside the database: GET /audit/verify');
    }
  });
  app.decorate('jobs', jobs);
  // The feed listens whether or not the timers run: tests leave them off but still watch the stream.
  app.addHook('onReady', () => ctx.events.start(app.log));
  app.addHook('preClose', () => ctx.events.stop());
  // Nothing runs on rows an upgrade's backfill is still rewriting.
  if (isStarted) app.addHook('onReady', async () => app.upgrade.onFinished(() => jobs.start()));
  app.addHook('preClose', () => jobs.stop());
}

/**
 * No answer leaves before every commit made so far is on disk (SQLite's group commit): not only a
 * write's acknowledgement, but also a read that may show another request's commit, so nothing a
 * tablet was shown can vanish in a power cut. When the sync fails the answer becomes a 500 (replaced
 * here: handing the error back to Fastify would send it through this hook again).
 */
function answerOnlyWhatIsOnDisk(app: FastifyInstance, database: DatabaseHandle): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!database.hasUnflushedCommits()) return done(null, payload);
    database.flushCommits().then(
      () => done(null, payload),
      (error: unknown) => {
        request.log.fatal({ err: error }, 'commits could not be synced to disk; nothing is acknowledged');
        reply.code(500).type('application/json; charset=utf-8');
        done(null, JSON.stringify(INTERNAL_ERROR_BODY));
      },
    );
  });
}

function createServer(config: Config, logStream: NodeJS.WritableStream | undefined) {
  return Fastify({
    ...loggerOptions(config, logStream),
    bodyLimit: 256 * 1024,
    // Behind the restaurant's TLS proxy: request.ip, request.protocol and request.host then come from
    // its X-Forwarded-* headers, but only when the connection is from a proxy the operator named.
    trustProxy: trustedProxies(config),
    // Requests that arrive while closing are still served (with Connection: close); Fastify's
    // default 503 would keep a busy keep-alive connection, and so the shutdown, going forever.
    return503OnClosing: false,
  }).withTypeProvider<TypeBoxTypeProvider>();
}

/** Fastify's forms; a hop count as the function Fastify itself makes of one (its types omit numbers). */
function trustedProxies(config: Config): boolean | string | ((address: string, hop: number) => boolean) {
  const { trustProxy } = config;
  if (typeof trustProxy === 'number') return (_address, hop) => hop < trustProxy;
  return trustProxy === false ? false : trustProxy.join(',');
}

async function registerPlugins(app: FastifyInstance, ctx: AppContext): Promise<void> {
  refuseUnknownHosts(app, ctx.config);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  acceptEmptyJsonBodies(app);
  registerErrorHandling(app);
  await app.register(cookie);
  await registerSecurity(app, ctx.config);
  await app.register(rateLimit, {
    global: false,
    // Per-route limits such as initial set-up's; logins and wallet secrets count their failures in the
    // database instead (core/failure-limiter.ts), shared by every instance.
    hook: 'preHandler',
    errorResponseBuilder: (_request, context) => ({
      statusCode: context.statusCode,
      message: 'Too many requests',
    }),
  });
  const findLivePrincipal = ctx.principals.wrap((sessionId, userId) =>
    findPrincipal(ctx.db, sessionId, userId, ctx.clock.now()),
  );
  // What each feature is handed: the context, and the ports by which a lower layer makes a higher one
  // act (docs/architecture.md): each feature's plugin names the ones it takes.
  const features = {
    ctx,
    findPrincipal: findLivePrincipal,
    cancelBillsOfOrder,
    settleArrived: settleByHash,
  };
  await app.register(authGuard, {
    tokens: ctx.tokens,
    findPrincipal: findLivePrincipal,
    permissions: { permissionOfRoute, permissionNote, authorize: authorizeRoute },
  });
  await registerOpenApi(app);

  const featurePlugins: FastifyPluginAsyncTypebox<typeof features>[] = [
    generalRoutes,
    setupRoutes,
    authRoutes,
    approvalsRoutes,
    usersRoutes,
    rolesRoutes,
    settingsRoutes,
    categoriesRoutes,
    menuRoutes,
    modifiersRoutes,
    spacesRoutes,
    tablesRoutes,
    ordersRoutes,
    orderDishesRoutes,
    floorMovesRoutes,
    kitchenRoutes,
    inventoryRoutes,
    orderFiltersRoutes,
    ticketsRoutes,
    paymentsRoutes,
    cardTerminalRoutes,
    guestLinksRoutes,
    guestRoutes,
    displaysRoutes,
    fiscalRoutes,
    shiftsRoutes,
    reportsRoutes,
    receiptsRoutes,
    printersRoutes,
    ratesRoutes,
    walletFeature,
    eventsRoutes,
    webhooksRoutes,
    channelsRoutes,
    auditRoutes,
  ];
  for (const feature of featurePlugins) await app.register(feature, features);
  await app.register(webAppRoutes);
  await app.register(guestPageRoutes);
}
