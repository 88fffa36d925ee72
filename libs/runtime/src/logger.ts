// SPDX-License-Identifier: AGPL-3.0-or-later
import { pino, type DestinationStream, type Logger } from 'pino';

/** Request headers that carry credentials; their values never reach a log line. */
const SECRET_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key'] as const;

const REDACTED = '[redacted]';

/**
 * Structured paths first (cheap, exact): headers of a request or response as fastify and its plugins log them,
 * one level down (`busboyOptions.headers`, `req.headers`) or at the top, plus API keys and tokens.
 */
const redactPaths = [
  ...SECRET_HEADERS.flatMap((h) => [`headers["${h}"]`, `*.headers["${h}"]`]),
  '*.apiKey',
  '*.api_key',
  '*.token',
];

/**
 * Then the serialised line, whatever its shape or depth: a header value written under a credential header's
 * name, and any `Bearer <token>` (in an error message, a dumped options object, a URL).
 */
const headerValue = new RegExp(`("(?:${SECRET_HEADERS.join('|')})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'gi');
const bearer = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;

/** A log line with every credential replaced by `[redacted]`. */
export const scrubSecrets = (line: string): string =>
  line.replace(headerValue, `$1"${REDACTED}"`).replace(bearer, `$1 ${REDACTED}`);

/**
 * Structured JSON logs (pino), one logger per service; secrets are redacted wherever they appear, at every
 * level (at `trace`, @fastify/multipart logs the busboy options, which carry every request header).
 */
export const createLogger = (service: string, level: string, destination?: DestinationStream): Logger => {
  const options = {
    name: service,
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: redactPaths, censor: REDACTED },
    hooks: { streamWrite: scrubSecrets },
  };
  return destination ? pino(options, destination) : pino(options);
};
