import { Value } from 'typebox/value';
import { rekeyAuditLog } from '../audit/audit-chain';
import { COMMAND_LINE_ACTOR, recordAudit } from '../audit/record-audit';
import type { Config } from '../config';
import type { AppContext } from '../core/context';
import type { DatabaseHandle } from '../core/db/database';
import { migrateToLatest } from '../core/db/database';
import { BadRequestError, ConflictError, NotFoundError } from '../core/errors';
import { hashWalletPassword } from '../core/pin';
import { userNameKey } from '../users/user-name';
import { findLiveUserByNameKey } from '../users/users.repo';
import { Pin, UserName } from '../users/users.schemas';
import { createUser, updateUser } from '../users/users.service';
import { replaceWalletPasswordHash } from '../wallet/wallet-access.repo';
import { readSecret } from './secret-input';

export const PIN_VARIABLE = 'POS_CLI_PIN';
export const WALLET_PASSWORD_VARIABLE = 'POS_CLI_WALLET_PASSWORD';

const PIN_SCHEMA = Pin();
const WALLET_PASSWORD_LENGTH = { min: 8, max: 200 };

async function readPin(): Promise<string> {
  const pin = (await readSecret(PIN_VARIABLE, 'PIN: ')).trim();
  if (!Value.Check(PIN_SCHEMA, pin)) throw new BadRequestError('The PIN must be 4 to 12 digits');
  return pin;
}

async function liveUserNamed(ctx: AppContext, name: string) {
  const user = await findLiveUserByNameKey(ctx.db, userNameKey(name));
  if (!user) throw new NotFoundError(`No user named "${name.trim()}"`);
  return user;
}

export async function createUserCommand(
  ctx: AppContext,
  input: { name: string; role: string },
): Promise<string> {
  if (!Value.Check(UserName, input.name))
    throw new BadRequestError('The name must be 1 to 100 characters, not blank');
  const user = await createUser(
    ctx,
    { name: input.name, role: input.role, pin: await readPin() },
    undefined,
    {
      actor: COMMAND_LINE_ACTOR,
      action: 'cli.user_created',
    },
  );
  return `Created ${user.role} "${user.name}" (id ${user.id}).`;
}

/** The same service call as `PUT /users/{id}`, so the user's sessions end just as they do there. */
export async function resetPinCommand(ctx: AppContext, input: { name: string }): Promise<string> {
  const user = await liveUserNamed(ctx, input.name);
  const pin = await readPin();
  await updateUser(ctx, undefined, user.id, { name: user.name, role: user.role, pin });
  return `PIN of "${user.name}" changed.`;
}

/**
 * An operator with access to the server's environment and database resets the password, so neither
 * the old password nor the PIN is asked for (the API asks for one of them).
 */
export async function setWalletPasswordCommand(ctx: AppContext, input: { name: string }): Promise<string> {
  const user = await liveUserNamed(ctx, input.name);
  if (user.role !== 'admin')
    throw new BadRequestError(`"${user.name}" is not an admin; only admins use the wallet`);
  const password = await readSecret(WALLET_PASSWORD_VARIABLE, 'Wallet password: ');
  if (password.length < WALLET_PASSWORD_LENGTH.min || password.length > WALLET_PASSWORD_LENGTH.max) {
    throw new BadRequestError(
      `The wallet password must be ${WALLET_PASSWORD_LENGTH.min} to ${WALLET_PASSWORD_LENGTH.max} characters`,
    );
  }
  const newHash = await hashWalletPassword(password, ctx.secrets.pinKey, user.id);
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const isReplaced = await replaceWalletPasswordHash(trx, user.id, {
      expectedHash: user.wallet_password_hash,
      newHash,
      now,
    });
    if (!isReplaced) throw new ConflictError('The wallet password was changed meanwhile; try again');
    await recordAudit(trx, {
      at: now,
      actor: COMMAND_LINE_ACTOR,
      action: 'cli.wallet_password_set',
      target: { type: 'user', id: user.id },
    });
  });
  return `Wallet password of "${user.name}" set.`;
}

export async function auditRekeyCommand(ctx: AppContext): Promise<string> {
  const entries = await rekeyAuditLog(ctx.db, ctx.secrets.auditKey, ctx.clock.now());
  return `Audit log moved to the keyed chain: ${entries} entries from before the key re-hashed, the head signed.`;
}

export async function migrateCommand(database: DatabaseHandle): Promise<string> {
  const applied = await migrateToLatest(database.db);
  return applied.length === 0 ? 'Database is up to date.' : `Applied: ${applied.join(', ')}`;
}

const MASK = '********';

/** The configuration as the server would read it from this environment, with every secret masked. */
export function configCommand(config: Config): string {
  const mask = (value: string | undefined) => (value === undefined ? null : MASK);
  const shown = {
    ...config,
    databaseUrl: maskUrlPassword(config.databaseUrl),
    jwtSecret: config.jwtSecret === undefined ? 'generated, stored in the database' : MASK,
    pinKey: config.pinKey === undefined ? 'generated, stored in the database' : MASK,
    adminBootstrap: config.adminBootstrap
      ? {
          name: config.adminBootstrap.name,
          pin: MASK,
          walletPassword: mask(config.adminBootstrap.walletPassword),
        }
      : null,
    phoenixd: {
      ...config.phoenixd,
      password: mask(config.phoenixd.password),
      webhookSecret: mask(config.phoenixd.webhookSecret),
    },
  };
  return JSON.stringify(shown, null, 2);
}

function maskUrlPassword(databaseUrl: string): string {
  if (!databaseUrl.startsWith('postgres') || !URL.canParse(databaseUrl)) return databaseUrl;
  const url = new URL(databaseUrl);
  if (url.password !== '') url.password = MASK;
  return url.toString();
}
