// SPDX-License-Identifier: AGPL-3.0-or-later
import { authModeProblems, type AuthEnv } from './oauth.js';

/** The shortest bearer key a service starts with (16 characters: a random one holds ~95 bits). */
export const MIN_API_KEY_LENGTH = 16;

/** Values people leave in a template instead of a key (the example Secret's `change-me-…` among them). */
const PLACEHOLDERS = [
  /change[-_ .]?me/i,
  /replace[-_ .]?me/i,
  /your[-_ .]?(api[-_ .]?)?(key|token|secret)/i,
  /^<.*>$/,
  /^\$\{.*\}$/,
  /^(x+|\*+|0+|secret|password|token|api[-_]?key|key|test|example|placeholder|dummy|default|todo|none|null|undefined)$/i,
];

export const isPlaceholderKey = (key: string): boolean => PLACEHOLDERS.some((p) => p.test(key.trim()));

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|::1|\[::1\])$/i;

/** Whether a listen address (HOST) is reachable from this machine only. */
export const isLoopbackHost = (host: string): boolean => LOOPBACK.test(host.trim());

export interface StartupAuthFacts {
  /** The listen address (HOST). */
  host: string;
  /** The service's bearer key variables in the order they take effect (e.g. `CONVERTER_API_KEY`, `MCP_API_KEY`). */
  keys: ReadonlyArray<readonly [name: string, value: string | undefined]>;
  /** `LECTERN_ALLOW_NO_AUTH=true`: listening beyond loopback without any credential is intended. */
  allowNoAuth: boolean;
  /** Tokens checked like keys (no placeholder, long enough) that open one route only (`METRICS_TOKEN`): no credential. */
  tokens?: ReadonlyArray<readonly [name: string, value: string | undefined]>;
  /** Another credential is required instead of a key (`AUTH_MODE=oauth`): no key needed. */
  otherCredential?: boolean;
  /** `AUTH_MODE` and the OAuth variables, checked against the keys (`authModeProblems`). */
  authEnv?: AuthEnv;
}

/**
 * What stops a service at start (issue 27): a set key that is a placeholder or shorter than
 * `MIN_API_KEY_LENGTH`, and — listening beyond loopback — no credential at all unless `LECTERN_ALLOW_NO_AUTH=true`.
 * The key itself never appears in a message.
 */
export const startupAuthProblems = (facts: StartupAuthFacts): string[] => {
  const problems: string[] = [];
  for (const [name, value] of [...facts.keys, ...(facts.tokens ?? [])]) {
    if (value === undefined || value === '') continue;
    if (isPlaceholderKey(value))
      problems.push(`${name}: a placeholder value, not a key; set a long random string (e.g. openssl rand -hex 32)`);
    else if (value.length < MIN_API_KEY_LENGTH)
      problems.push(`${name}: too short (${value.length} characters, at least ${MIN_API_KEY_LENGTH})`);
  }
  const keySet = facts.keys.some(([, value]) => value !== undefined && value !== '');
  if (facts.authEnv) problems.push(...authModeProblems(facts.authEnv, keySet));
  if (!keySet && !facts.otherCredential && !isLoopbackHost(facts.host) && !facts.allowNoAuth) {
    const names = facts.keys.map(([name]) => name).join(' or ');
    problems.push(
      `${names}: required when listening beyond loopback (HOST=${facts.host}): anyone who can reach the port could ` +
        'use the service. Set a key, listen on HOST=127.0.0.1, or set LECTERN_ALLOW_NO_AUTH=true to run open on purpose',
    );
  }
  return problems;
};
