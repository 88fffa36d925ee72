// SPDX-License-Identifier: AGPL-3.0-or-later
import { createHash } from 'node:crypto';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import { ALL_SCOPES } from './scopes.js';

/**
 * Missing or contradictory auth settings. Its own class (not libs/runtime's `ConfigError`): libs/auth stays free of
 * imports, so any layer may use it; the services report `problems` as configuration errors (startup-auth.ts).
 */
export class AuthConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'AuthConfigError';
  }
}

/** A resource server's settings (`AUTH_MODE=oauth`). */
export interface OAuthSettings {
  /** The authorization server: tokens' `iss`, and where its metadata is discovered. */
  issuer: string;
  /** This service's resource URI (RFC 8707/9728): tokens' `aud` must name it. */
  resource: string;
  /** The JWKS (default: `jwks_uri` from the issuer's metadata). */
  jwksUrl?: string | undefined;
  clockSkewSeconds: number;
  /** Shortest time between two JWKS fetches for an unknown key (default 30 s; rotation is picked up after it). */
  jwksCooldownMs?: number;
  /** Opaque tokens: RFC 7662 introspection (endpoint default: the issuer metadata's), with this client's credentials. */
  introspection?:
    | {
        url?: string | undefined;
        clientId: string;
        clientSecret: string;
        /** How long an answer is reused (default 30 s; never past the token's `exp`; 0: every request asks). */
        cacheSeconds?: number | undefined;
      }
    | undefined;
}

/** Most introspection answers held at once (the oldest goes first). */
const INTROSPECTION_CACHE_ENTRIES = 10_000;

/** Who a valid token speaks for. */
export interface Principal {
  subject: string | undefined;
  clientId: string | undefined;
  scopes: ReadonlySet<string>;
}

export type TokenCheck = { ok: true; principal: Principal } | { ok: false; description: string };

export interface TokenVerifier {
  verify(token: string): Promise<TokenCheck>;
  /** RFC 9728 Protected Resource Metadata of this service. */
  metadata(resourceName: string): Record<string, unknown>;
  /** Where the metadata is served (absolute), for `WWW-Authenticate: Bearer resource_metadata="..."`. */
  readonly metadataUrl: string;
}

interface IssuerMetadata {
  jwks_uri?: string;
  introspection_endpoint?: string;
}

/** RFC 8414 (path inserted after the host) then OpenID Connect discovery (path appended). */
const discoverIssuer = async (issuer: string): Promise<IssuerMetadata> => {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  const candidates = [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
  for (const candidate of candidates) {
    const res = await fetch(candidate, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(5_000) });
    if (res.ok) return (await res.json()) as IssuerMetadata;
  }
  throw new Error(`no authorization server metadata at ${issuer}`);
};

/** The path RFC 9728 puts a resource's metadata at: `/.well-known/oauth-protected-resource` + the resource's path. */
export const protectedResourceMetadataPath = (resource: string): string => {
  const path = new URL(resource).pathname.replace(/\/$/, '');
  return `/.well-known/oauth-protected-resource${path}`;
};

const scopesOf = (value: unknown): Set<string> =>
  new Set(typeof value === 'string' ? value.split(' ').filter(Boolean) : Array.isArray(value) ? value.map(String) : []);

const describeJoseError = (error: unknown): string => {
  if (error instanceof joseErrors.JWTExpired) return 'The access token expired';
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return 'The access token is not for this resource (audience)';
    if (error.claim === 'iss') return 'The access token is from another issuer';
    return `The access token's ${error.claim} claim is not valid`;
  }
  if (error instanceof joseErrors.JWKSNoMatchingKey) return 'The access token is signed with an unknown key';
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return 'The access token signature is not valid';
  return 'The access token is not valid';
};

const looksLikeJwt = (token: string): boolean => /^[\w-]+\.[\w-]+\.[\w-]*$/.test(token);

/**
 * The OAuth 2.1 resource server's token check (issue 30; the MCP authorization specification). JWT access tokens
 * are verified with `jose` against the issuer's JWKS — fetched once and cached; a token signed with a key the cache
 * does not hold makes `jose` fetch the set again (rotation), at most every 30 s — with the issuer, the audience (this
 * resource's URI, RFC 8707) and expiry enforced with `clockSkewSeconds` of tolerance. With `introspection`
 * configured, a token that is not a JWT is introspected (RFC 7662) and held to the same rules.
 */
export const createTokenVerifier = (settings: OAuthSettings): TokenVerifier => {
  let discovered: Promise<IssuerMetadata> | undefined;
  const issuerMetadata = (): Promise<IssuerMetadata> => {
    discovered ??= discoverIssuer(settings.issuer).catch((error: unknown) => {
      discovered = undefined; // try again on the next request
      throw error;
    });
    return discovered;
  };
  let jwks: ReturnType<typeof createRemoteJWKSet> | undefined;
  const keySet = async () => {
    if (!jwks) {
      const url = settings.jwksUrl ?? (await issuerMetadata()).jwks_uri;
      if (!url) throw new Error('the issuer metadata names no jwks_uri');
      jwks = createRemoteJWKSet(new URL(url), {
        cooldownDuration: settings.jwksCooldownMs ?? 30_000,
        cacheMaxAge: 10 * 60_000,
      });
    }
    return jwks;
  };

  const accept = (claims: JWTPayload & { scope?: unknown; client_id?: unknown; scp?: unknown }): TokenCheck => ({
    ok: true,
    principal: {
      subject: claims.sub,
      clientId: typeof claims.client_id === 'string' ? claims.client_id : undefined,
      scopes: scopesOf(claims.scope ?? claims.scp),
    },
  });

  /**
   * Introspection answers by token hash (never the token itself), each until the cache TTL or the token's `exp`,
   * whichever comes first, so a busy client does not cost one authorization server round trip per request. A
   * revoked token is refused at the latest `cacheSeconds` later: keep the TTL short. Refusals are cached the same
   * way (a refused token never becomes valid). Hand-written: a Map with expiry is all it needs.
   */
  const cache = new Map<string, { check: TokenCheck; until: number }>();
  const cacheSeconds = settings.introspection?.cacheSeconds ?? 30;
  const introspectCached = async (token: string): Promise<TokenCheck> => {
    const key = createHash('sha256').update(token).digest('base64url');
    const now = Date.now();
    const hit = cache.get(key);
    if (hit && hit.until > now) return hit.check;
    if (hit) cache.delete(key);
    const { check, exp } = await introspect(token);
    const until = Math.min(now + cacheSeconds * 1000, exp === undefined ? Infinity : exp * 1000);
    if (until > now) {
      if (cache.size >= INTROSPECTION_CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
      cache.set(key, { check, until });
    }
    return check;
  };

  const introspect = async (token: string): Promise<{ check: TokenCheck; exp?: number | undefined }> => {
    const config = settings.introspection;
    if (!config) return { check: { ok: false, description: 'The access token is not valid' } };
    const url = config.url ?? (await issuerMetadata()).introspection_endpoint;
    if (!url) throw new Error('no introspection endpoint');
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(config.clientId)}:${encodeURIComponent(config.clientSecret)}`).toString('base64')}`,
      },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
      signal: AbortSignal.timeout(5_000),
    });
    if (!res.ok) throw new Error(`introspection answered ${res.status}`);
    const claims = (await res.json()) as JWTPayload & { active?: boolean; scope?: unknown; client_id?: unknown };
    if (claims.active !== true) return { check: { ok: false, description: 'The access token is not active' } };
    const exp = typeof claims.exp === 'number' ? claims.exp + settings.clockSkewSeconds : undefined;
    const refuse = (description: string) => ({ check: { ok: false as const, description }, exp });
    if (claims.iss !== undefined && claims.iss !== settings.issuer)
      return refuse('The access token is from another issuer');
    const audiences = claims.aud === undefined ? [] : Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (!audiences.includes(settings.resource)) return refuse('The access token is not for this resource (audience)');
    if (exp !== undefined && exp < Date.now() / 1000)
      return { check: { ok: false, description: 'The access token expired' } };
    return { check: accept(claims), exp };
  };

  const metadataUrl = new URL(protectedResourceMetadataPath(settings.resource), settings.resource).href;

  return {
    metadataUrl,
    verify: async (token) => {
      if (!looksLikeJwt(token))
        return settings.introspection ? introspectCached(token) : introspect(token).then((r) => r.check);
      try {
        const { payload } = await jwtVerify(token, await keySet(), {
          issuer: settings.issuer,
          audience: settings.resource,
          clockTolerance: settings.clockSkewSeconds,
          requiredClaims: ['exp'],
        });
        return accept(payload);
      } catch (error) {
        if (error instanceof joseErrors.JOSEError) return { ok: false, description: describeJoseError(error) };
        throw error;
      }
    },
    metadata: (resourceName) => ({
      resource: settings.resource,
      authorization_servers: [settings.issuer],
      scopes_supported: ALL_SCOPES,
      bearer_methods_supported: ['header'],
      resource_name: resourceName,
    }),
  };
};

/** The `AUTH_MODE` variables as one service reads them. */
export interface AuthEnv {
  AUTH_MODE?: 'key' | 'oauth' | 'none' | undefined;
  OAUTH_ISSUER?: string | undefined;
  OAUTH_RESOURCE?: string | undefined;
  OAUTH_JWKS_URL?: string | undefined;
  OAUTH_CLOCK_SKEW_S: number;
  OAUTH_INTROSPECTION_URL?: string | undefined;
  OAUTH_INTROSPECTION_CLIENT_ID?: string | undefined;
  OAUTH_INTROSPECTION_CLIENT_SECRET?: string | undefined;
  OAUTH_INTROSPECTION_CACHE_S?: number | undefined;
}

/** `AUTH_MODE=oauth`'s settings (undefined in the other modes); an `AuthConfigError` names what is missing. */
export const oauthSettings = (env: AuthEnv): OAuthSettings | undefined => {
  if (env.AUTH_MODE !== 'oauth') return undefined;
  return oauthSettingsOf(env);
};

/**
 * `AUTH_MODE` checked against the keys at start: `key` needs one, `none` refuses one (a key that would silently
 * not apply), `oauth` needs its settings (`oauthSettings`).
 */
export const authModeProblems = (env: AuthEnv, keySet: boolean): string[] => {
  if (env.AUTH_MODE === 'key' && !keySet) return ["AUTH_MODE=key: no key is set (MCP_API_KEY or the service's own)"];
  if (env.AUTH_MODE === 'none' && keySet)
    return ['AUTH_MODE=none: a key is set; unset it, or set AUTH_MODE=key (or leave AUTH_MODE unset)'];
  if (env.AUTH_MODE === 'oauth') {
    try {
      oauthSettingsOf(env);
    } catch (error) {
      return error instanceof AuthConfigError ? error.problems : [String(error)];
    }
  }
  return [];
};

const oauthSettingsOf = (env: AuthEnv): OAuthSettings => {
  const problems: string[] = [];
  if (!env.OAUTH_ISSUER) problems.push('OAUTH_ISSUER: required with AUTH_MODE=oauth (the authorization server)');
  if (!env.OAUTH_RESOURCE) problems.push("OAUTH_RESOURCE: required with AUTH_MODE=oauth (this service's resource URI)");
  const introspecting = Boolean(env.OAUTH_INTROSPECTION_CLIENT_ID || env.OAUTH_INTROSPECTION_CLIENT_SECRET);
  if (introspecting && !(env.OAUTH_INTROSPECTION_CLIENT_ID && env.OAUTH_INTROSPECTION_CLIENT_SECRET))
    problems.push('OAUTH_INTROSPECTION_CLIENT_ID and OAUTH_INTROSPECTION_CLIENT_SECRET: set both or neither');
  if (problems.length > 0 || !env.OAUTH_ISSUER || !env.OAUTH_RESOURCE) throw new AuthConfigError(problems);
  return {
    issuer: env.OAUTH_ISSUER,
    resource: env.OAUTH_RESOURCE,
    jwksUrl: env.OAUTH_JWKS_URL,
    clockSkewSeconds: env.OAUTH_CLOCK_SKEW_S,
    introspection:
      env.OAUTH_INTROSPECTION_CLIENT_ID && env.OAUTH_INTROSPECTION_CLIENT_SECRET
        ? {
            url: env.OAUTH_INTROSPECTION_URL,
            clientId: env.OAUTH_INTROSPECTION_CLIENT_ID,
            clientSecret: env.OAUTH_INTROSPECTION_CLIENT_SECRET,
            cacheSeconds: env.OAUTH_INTROSPECTION_CACHE_S,
          }
        : undefined,
  };
};
