import type { FastifyBaseLogger } from 'fastify';
import type { Config, CurrencyCode } from '../config';
import type { CardTerminal } from './card-terminal';
import type { Clock } from './clock';
import type { Db, DialectName } from './db/database';
import type { DeliveryPlatforms } from './delivery-platform';
import type { LightningNode } from './lightning-node';
import type { Pac } from './pac';
import type { PrincipalCache } from './principal-cache';
import type { Secrets } from './secrets';
import type { TokenService } from './tokens';

/**
 * What features are handed: built once at start-up by the composition root (`src/create-context.ts`),
 * never a global. Types only, so that every feature can name it without knowing who builds its parts:
 * each part that talks to the outside or lives across requests is a port declared here.
 */
export type AppContext = Readonly<{
  config: Config;
  db: Db;
  dialect: DialectName;
  clock: Clock;
  secrets: Secrets;
  tokens: TokenService;
  /** Who each live session belongs to; forget it after changing sessions or users. */
  principals: PrincipalCache;
  /** The restaurant's Lightning node; undefined when no phoenixd password is configured. */
  lightning: LightningNode | undefined;
  /** The price of 1 BTC in the settings' base currency, for Lightning bills. */
  rates: ExchangeRates;
  /** Wakes readers of the events outbox when new positions are visible (events/event-feed.ts). */
  events: EventFeed;
  /** Facturapi, the PAC that stamps CFDIs (pac/); undefined when no POS_PAC_KEY is configured. */
  pac: Pac | undefined;
  /** Sends bytes to a network printer (printing/printer-socket.ts). */
  printers: PrinterTransport;
  /** Uber Eats and Rappi (delivery-apps/), each present only when configured. */
  deliveryApps: DeliveryPlatforms;
  /** Mercado Pago Point (card-terminals/); undefined when no POS_MP_ACCESS_TOKEN is configured. */
  cardTerminal: CardTerminal | undefined;
}>;

/** Where a network printer listens: raw ESC/POS on TCP, port 9100 on most of them. */
export type PrinterAddress = { host: string; port: number };

/** Sends bytes to a printer; rejects when it cannot be reached or does not take them in time. */
export type PrinterTransport = (address: PrinterAddress, bytes: Uint8Array) => Promise<void>;

export type ExchangeRate = { currency: CurrencyCode; btcPrice: number; source: string; fetchedAt: number };

/** Where a refused price is reported; the app hands in its logger once it is ready. */
export type RateLog = { warn(details: object, message: string): void };

/** The price of 1 BTC (rates/exchange-rate.ts). */
export interface ExchangeRates {
  /** `currency` is the base currency of the settings, read by the caller for this request. */
  current(currency: CurrencyCode): Promise<ExchangeRate>;
  useLog(log: RateLog): void;
}

/** The outbox's follower on this instance (events/event-feed.ts). */
export interface EventFeed {
  /** Where the outbox's followers read: the feed's own connections on PostgreSQL. */
  readonly db: Db;
  readonly dialect: DialectName;
  /** Calls `listener` with the latest visible position whenever it grows; returns the unsubscribe. */
  onNewPositions(listener: (latest: number) => void): () => void;
  start(log: FastifyBaseLogger): Promise<void>;
  stop(): Promise<void>;
  /** Looks for new positions and tells the listeners. */
  wake(): void;
  /** PostgreSQL: numbers every event committed before the call (a no-op on SQLite). */
  sequence(): Promise<void>;
}
