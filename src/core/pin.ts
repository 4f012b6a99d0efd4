import { pbkdf2, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const pbkdf2Async = promisify(pbkdf2);

/** Spec item 13: PBKDF2-HMAC-SHA256, 10,000 iterations, 256-bit key. */
export const PBKDF2_ITERATIONS = 10_000;
export const PBKDF2_KEY_BYTES = 32;

async function derive(secret: string, salt: string): Promise<Buffer> {
  return pbkdf2Async(secret, salt, PBKDF2_ITERATIONS, PBKDF2_KEY_BYTES, 'sha256');
}

async function matches(secret: string, salt: string, storedHex: string): Promise<boolean> {
  const candidate = await derive(secret, salt);
  const stored = Buffer.from(storedHex, 'hex');
  return stored.length === candidate.length && timingSafeEqual(stored, candidate);
}

/** The salt is the PIN master key followed by the user's name, as the spec prescribes. */
export async function hashPin(pin: string, pinKey: string, userName: string): Promise<string> {
  return (await derive(pin, pinKey + userName)).toString('hex');
}

export function verifyPin(
  pin: string,
  pinKey: string,
  userName: string,
  storedHex: string,
): Promise<boolean> {
  return matches(pin, pinKey + userName, storedHex);
}

/** Wallet passwords use the same derivation with their own salt, bound to the user's permanent id. */
export async function hashWalletPassword(password: string, pinKey: string, userId: string): Promise<string> {
  return (await derive(password, `${pinKey}wallet:${userId}`)).toString('hex');
}

export function verifyWalletPassword(
  password: string,
  pinKey: string,
  userId: string,
  storedHex: string,
): Promise<boolean> {
  return matches(password, `${pinKey}wallet:${userId}`, storedHex);
}
