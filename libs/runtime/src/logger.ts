import { pino, type Logger } from 'pino';

/** Structured JSON logs (pino), one logger per service; secrets are redacted wherever they appear. */
export const createLogger = (service: string, level: string): Logger =>
  pino({
    name: service,
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', '*.apiKey', '*.api_key', '*.token'],
      censor: '[redacted]',
    },
  });
