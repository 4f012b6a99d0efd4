import { type FastifyReply, type FastifyRequest, type FastifyServerOptions, LogController } from 'fastify';
import { isColorSupported, prettyFactory } from 'pino-pretty';
import type { Config } from '../config';

/** Paths pino blanks out wherever they appear in a log line, whatever the format. */
const REDACTED_LOG_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-manager-approval"]',
  'res.headers["set-cookie"]',
  '*.pin',
  '*.password',
  '*.wallet_password',
  '*.current_password',
  '*.new_password',
  '*.accessToken',
  '*.refreshToken',
  '*.walletAccessToken',
];

/**
 * A guest link's token is the key to a bill, its payments and its e-invoice (with the customer's
 * RFC): whoever reads the log must not be able to open them, so the token in the path is blanked.
 */
const GUEST_TOKEN_IN_PATH = /^(\/(?:g|guest)\/)(?!assets\/)[^/?#]+/;

function redactGuestToken(url: string): string {
  return url.replace(GUEST_TOKEN_IN_PATH, '$1[redacted]');
}

/** Fastify's own request serializer, with the guest token blanked from the URL. */
function serializeRequest(request: FastifyRequest) {
  const version = request.headers['accept-version'];
  return {
    method: request.method,
    url: redactGuestToken(request.url),
    version: typeof version === 'string' ? version : undefined,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** Load balancers and container runtimes call these every few seconds; at info they would drown the log. */
const HEALTH_CHECK_URLS = new Set(['/health', '/health/live']);

/**
 * Fastify's per-request lines, with the caller's user id on the closing line once the auth guard has
 * resolved it (read from the request only when the line is written), and health checks at debug.
 */
class RequestLogController extends LogController {
  override incomingRequest(request: FastifyRequest, reply: FastifyReply): void {
    if (HEALTH_CHECK_URLS.has(request.routeOptions.url as string)) {
      request.log.debug({ req: request }, 'incoming request');
    } else {
      super.incomingRequest(request, reply);
    }
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const userId = request.principal?.id;
    if (error) {
      reply.log.error({ res: reply, err: error, responseTime: reply.elapsedTime, userId }, 'request errored');
      return;
    }
    const line = { res: reply, responseTime: reply.elapsedTime, userId };
    if (HEALTH_CHECK_URLS.has(request.routeOptions.url as string)) reply.log.debug(line, 'request completed');
    else reply.log.info(line, 'request completed');
  }
}

/**
 * The logger of the server. Pretty lines are made from pino's JSON after redaction, in the same
 * thread and in order, so a line written just before the process exits is not lost.
 */
export function loggerOptions(
  config: Config,
  destination: NodeJS.WritableStream = process.stdout,
): Pick<FastifyServerOptions, 'logger' | 'logController'> {
  const stream =
    config.logFormat === 'pretty'
      ? prettyLines(destination)
      : destination === process.stdout
        ? undefined
        : destination;
  return {
    logger: {
      level: config.logLevel,
      redact: { paths: REDACTED_LOG_PATHS, censor: '[redacted]' },
      serializers: { req: serializeRequest },
      ...(stream && { stream }),
    },
    logController: new RequestLogController(),
  };
}

function prettyLines(destination: NodeJS.WritableStream): { write: (line: string) => void } {
  const prettify = prettyFactory({
    colorize: destination === process.stdout && isColorSupported,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
  });
  return { write: (line) => destination.write(prettify(line)) };
}
