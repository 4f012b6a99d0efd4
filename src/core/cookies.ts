import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply } from 'fastify';
import { TOKEN_LIFETIME_SECONDS, type TokenKind } from './tokens';

export const COOKIE_NAMES: Readonly<Record<TokenKind, string>> = {
  access: 'accessToken',
  refresh: 'refreshToken',
  wallet: 'walletAccessToken',
};

function cookieOptions(secure: boolean): CookieSerializeOptions {
  return { httpOnly: true, sameSite: 'strict', path: '/', secure };
}

export function setTokenCookie(reply: FastifyReply, kind: TokenKind, token: string, secure: boolean): void {
  reply.setCookie(COOKIE_NAMES[kind], token, {
    ...cookieOptions(secure),
    maxAge: TOKEN_LIFETIME_SECONDS[kind],
  });
}

export function clearTokenCookie(reply: FastifyReply, kind: TokenKind, secure: boolean): void {
  reply.clearCookie(COOKIE_NAMES[kind], cookieOptions(secure));
}
