// SPDX-License-Identifier: AGPL-3.0-or-later
import { ConfigError, envEnum, envList, envPort, envUrl, parseEnv } from '@lectern/runtime';
import { z } from 'zod';

const blank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

/**
 * Environment of the console (issue 29). The console holds no key: the browser sends the bearer key it was given,
 * and the proxy passes it on. Each service's URL defaults to loopback on that service's own port variable (the one
 * `npm start` gives it), so one environment starts all five.
 */
export const ConsoleEnvSchema = z.object({
  LOG_LEVEL: envEnum(LOG_LEVELS, 'info'),
  HOST: z.preprocess(blank, z.string().default('127.0.0.1')),
  CONSOLE_PORT: envPort(3000),
  CONVERTER_PORT: envPort(8002),
  DOCUMENT_STORE_PORT: envPort(3002),
  POLICY_KB_PORT: envPort(3003),
  EXTRACTION_API_PORT: envPort(8000),
  /** Where the console's proxy finds each service (default: http://127.0.0.1:<its port variable>). */
  CONSOLE_CONVERTER_URL: envUrl(),
  CONSOLE_DOCUMENT_STORE_URL: envUrl(),
  CONSOLE_POLICY_KB_URL: envUrl(),
  CONSOLE_EXTRACTION_API_URL: envUrl(),
  /** Host / Origin values the proxy accepts (default: loopback names on the console's port); `*` accepts any. */
  CONSOLE_ALLOWED_HOSTS: envList([]),
  CONSOLE_ALLOWED_ORIGINS: envList([]),
  /**
   * OAuth sign-in (services running `AUTH_MODE=oauth`): the authorization server (the services' `OAUTH_ISSUER`) and
   * the console's public client there (authorization code + PKCE, redirect URI `<console origin>/`). Both or
   * neither; unset, the console asks for the bearer key.
   */
  CONSOLE_OAUTH_ISSUER: envUrl(),
  CONSOLE_OAUTH_CLIENT_ID: z.preprocess(blank, z.string().max(200).optional()),
  /**
   * The resource the token is asked for (RFC 8707): the services' `OAUTH_RESOURCE`, which must then be one value
   * for the four of them (the console signs in once, with one token).
   */
  CONSOLE_OAUTH_RESOURCE: envUrl(),
  /** The scopes asked for (default all three: the System page's queue API needs `lectern:admin`). */
  CONSOLE_OAUTH_SCOPE: z.preprocess(
    blank,
    z
      .string()
      .max(500)
      .regex(/^[\x21\x23-\x5B\x5D-\x7E]+( [\x21\x23-\x5B\x5D-\x7E]+)*$/, 'space-separated scope tokens')
      .default('openid lectern:read lectern:write lectern:admin'),
  ),
});

export type ConsoleConfig = z.infer<typeof ConsoleEnvSchema>;

export const loadConfig = (env: Record<string, string | undefined>): ConsoleConfig => {
  const config = parseEnv(ConsoleEnvSchema, env);
  const oauth = [config.CONSOLE_OAUTH_ISSUER, config.CONSOLE_OAUTH_CLIENT_ID, config.CONSOLE_OAUTH_RESOURCE];
  if (oauth.some(Boolean) && !oauth.every(Boolean))
    throw new ConfigError([
      'CONSOLE_OAUTH_ISSUER, CONSOLE_OAUTH_CLIENT_ID and CONSOLE_OAUTH_RESOURCE: set all three (OAuth sign-in) or none (the bearer key)',
    ]);
  return config;
};

/** The console's OAuth client, when configured. */
export interface ConsoleOAuth {
  issuer: string;
  clientId: string;
  resource: string;
  scope: string;
}

export const consoleOAuth = (config: ConsoleConfig): ConsoleOAuth | undefined =>
  config.CONSOLE_OAUTH_ISSUER && config.CONSOLE_OAUTH_CLIENT_ID && config.CONSOLE_OAUTH_RESOURCE
    ? {
        issuer: config.CONSOLE_OAUTH_ISSUER,
        clientId: config.CONSOLE_OAUTH_CLIENT_ID,
        resource: config.CONSOLE_OAUTH_RESOURCE,
        scope: config.CONSOLE_OAUTH_SCOPE,
      }
    : undefined;

/** The four services behind `/svc/<name>/…`, by the name the UI uses. */
export const SERVICE_NAMES = ['converter', 'documents', 'policies', 'extraction'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export const serviceUrls = (config: ConsoleConfig): Record<ServiceName, string> => {
  const local = (port: number) => `http://127.0.0.1:${port}`;
  return {
    converter: config.CONSOLE_CONVERTER_URL ?? local(config.CONVERTER_PORT),
    documents: config.CONSOLE_DOCUMENT_STORE_URL ?? local(config.DOCUMENT_STORE_PORT),
    policies: config.CONSOLE_POLICY_KB_URL ?? local(config.POLICY_KB_PORT),
    extraction: config.CONSOLE_EXTRACTION_API_URL ?? local(config.EXTRACTION_API_PORT),
  };
};
