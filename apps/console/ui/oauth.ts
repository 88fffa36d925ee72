// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { apiKey } from './api.js';

/**
 * OAuth sign-in (authorization code + PKCE, RFC 7636) for services running `AUTH_MODE=oauth`. The access token is
 * kept where the key is (sessionStorage, this tab only) and sent as the bearer through the console's proxy.
 *
 * Hand-written with WebCrypto and fetch: `oauth4webapi` (the well-kept client for this) is not installed here, and the
 * part needed is small — a random verifier and state, the S256 challenge, the redirect, and one token exchange (done
 * by the console server, see apps/console/src/oauth.route.ts, so the CSP keeps `connect-src 'self'`).
 */

export const ConsoleAuthSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('key') }),
  z.object({
    mode: z.literal('oauth'),
    authorization_endpoint: z.string(),
    client_id: z.string(),
    resource: z.string(),
    scope: z.string(),
  }),
]);
export type ConsoleAuth = z.infer<typeof ConsoleAuthSchema>;
type OAuthClient = Extract<ConsoleAuth, { mode: 'oauth' }>;

const PENDING = 'lectern.console.oauth';
const PendingSchema = z.object({ state: z.string(), verifier: z.string(), hash: z.string() });
const TokenSchema = z.object({ access_token: z.string(), token_type: z.string(), scope: z.string().optional() });

const base64url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const random = (n: number): string => base64url(crypto.getRandomValues(new Uint8Array(n)));

/** Where the issuer sends the browser back: the console's own page (the code arrives in the query). */
const redirectUri = (): string => `${location.origin}/`;

/** How this console signs in (`GET /console/auth`). */
export const fetchAuth = async (): Promise<ConsoleAuth> => {
  const res = await fetch('/console/auth', { headers: { accept: 'application/json' } });
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const message = (body as { error?: { message?: string } } | null)?.error?.message;
    throw new Error(message ?? `The console could not say how to sign in (HTTP ${res.status}).`);
  }
  return ConsoleAuthSchema.parse(body);
};

/** Go to the issuer's sign-in page; the page the person was on is restored afterwards. */
export const startSignIn = async (client: OAuthClient): Promise<void> => {
  const verifier = random(32);
  const state = random(16);
  const challenge = base64url(
    new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))),
  );
  sessionStorage.setItem(PENDING, JSON.stringify({ state, verifier, hash: location.hash }));
  const url = new URL(client.authorization_endpoint);
  const params = {
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: redirectUri(),
    scope: client.scope,
    resource: client.resource,
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  location.assign(url.href);
};

/**
 * Back from the issuer (`?code=…&state=…`, or `?error=…`): check the state, exchange the code (with the verifier)
 * through the console, keep the access token. Returns false when the page was not a redirect back; throws with a
 * plain message when the sign-in failed. The query is removed from the address bar either way.
 */
export const finishSignIn = async (client: OAuthClient): Promise<boolean> => {
  const query = new URLSearchParams(location.search);
  if (!query.has('code') && !query.has('error')) return false;
  const pending = PendingSchema.safeParse(JSON.parse(sessionStorage.getItem(PENDING) ?? 'null'));
  sessionStorage.removeItem(PENDING);
  history.replaceState(null, '', `/${pending.success ? pending.data.hash : ''}`);
  if (query.has('error'))
    throw new Error(`The sign-in server did not sign you in (${(query.get('error') ?? '').slice(0, 64)}).`);
  if (!pending.success || query.get('state') !== pending.data.state)
    throw new Error('This sign-in was not started here (its state does not match); sign in again.');
  const res = await fetch('/console/token', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({
      grant_type: 'authorization_code',
      code: query.get('code') ?? '',
      code_verifier: pending.data.verifier,
      redirect_uri: redirectUri(),
      client_id: client.client_id,
    }),
  });
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok)
    throw new Error(
      (body as { error?: { message?: string } } | null)?.error?.message ?? `Sign-in failed (HTTP ${res.status}).`,
    );
  const token = TokenSchema.parse(body);
  apiKey.set(token.access_token);
  return true;
};
