import { createHash, randomBytes } from 'node:crypto';
import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import type { Db } from '../core/db/database';
import { NotFoundError, ServiceUnavailableError } from '../core/errors';
import { newId } from '../core/ids';
import { toIsoUtc } from '../core/time';
import { authorize } from '../permissions/permissions.api';
import * as links from './guest-links.repo';
import { findTicket } from './tickets.repo';

export const NEEDS_PUBLIC_URL = 'Guest links need POS_PUBLIC_URL';
const HOUR_MS = 60 * 60 * 1000;
/** How long a guest may come back after the bill closed (the receipt, the invoice). */
const AFTER_CLOSE_MS = 24 * HOUR_MS;
const MAX_LIFETIME_MS = 7 * 24 * HOUR_MS;
/** 256 random bits: no guessing a bill's page. */
const TOKEN_BYTES = 32;

export type GuestLink = { token: string; url: string; expiresAt: number };

/** The SHA-256 of a token: what is stored and looked up, so a copy of the database opens no bill. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function createGuestLink(
  ctx: AppContext,
  principal: Principal,
  ticketId: string,
): Promise<{ token: string; url: string; expires_at: string }> {
  authorize(principal, 'payments.take');
  const link = await ctx.db.transaction().execute((trx) => mintGuestLink(trx, ctx, ticketId));
  return { token: link.token, url: link.url, expires_at: toIsoUtc(link.expiresAt) };
}

/**
 * A new link to the bill's guest page (earlier ones stay valid), also what paper prints as a QR. It
 * lives at most 7 days, and 24 hours past the bill's close.
 */
export async function mintGuestLink(trx: Db, ctx: AppContext, ticketId: string): Promise<GuestLink> {
  const publicUrl = ctx.config.publicUrl;
  if (publicUrl === undefined) throw new ServiceUnavailableError(NEEDS_PUBLIC_URL);
  const ticket = await findTicket(trx, ticketId);
  if (!ticket) throw new NotFoundError();
  const now = ctx.clock.now();
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  const expiresAt = now + MAX_LIFETIME_MS;
  await links.insertGuestLink(trx, {
    id: newId(),
    token_hash: hashToken(token),
    ticket_id: ticketId,
    created_at: now,
    expires_at: expiresAt,
  });
  const closedAt = ticket.paid_at ?? ticket.canceled_at;
  return {
    token,
    url: `${publicUrl}/g/${token}`,
    expiresAt: closedAt === null ? expiresAt : Math.min(expiresAt, Number(closedAt) + AFTER_CLOSE_MS),
  };
}

export async function revokeGuestLinks(
  ctx: AppContext,
  principal: Principal,
  ticketId: string,
): Promise<void> {
  authorize(principal, 'payments.take');
  if (!(await findTicket(ctx.db, ticketId))) throw new NotFoundError();
  await links.revokeLinksOfTicket(ctx.db, ticketId, ctx.clock.now());
}

/**
 * The bill a guest token opens. Unknown, revoked and expired tokens get the very same answer, so a
 * guest cannot tell a link that once worked from one that never did.
 */
export async function ticketOfToken(db: Db, token: string, now: number): Promise<string> {
  const link = await links.findLiveLink(db, hashToken(token), now);
  const closedAt = link ? (link.paid_at ?? link.canceled_at) : null;
  if (!link || (closedAt !== null && now >= Number(closedAt) + AFTER_CLOSE_MS)) {
    throw new NotFoundError('Resource not found');
  }
  return link.ticket_id;
}
