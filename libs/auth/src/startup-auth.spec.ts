// SPDX-License-Identifier: AGPL-3.0-or-later
import { AuthConfigError, oauthSettings } from './oauth.js';
import { isPlaceholderKey, startupAuthProblems } from './startup-auth.js';

const GOOD = '9f1c2e7a0b4d8f3e6a5c1b2d7e9f0a3c';

describe('startup key rules (issue 27)', () => {
  it.each([
    'change-me-to-a-long-random-string',
    'change-me-too',
    'CHANGEME',
    'replace_me',
    'your-api-key',
    '<token>',
    'xxxxxxxxxxxxxxxxxxxx',
    '${MCP_API_KEY}',
    'secret',
  ])('refuses the placeholder %p, without echoing it', (key) => {
    expect(isPlaceholderKey(key)).toBe(true);
    const problems = startupAuthProblems({ host: '127.0.0.1', keys: [['MCP_API_KEY', key]], allowNoAuth: true });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^MCP_API_KEY: a placeholder/);
    expect(problems[0]).not.toContain(key);
  });

  it('refuses a key shorter than 16 characters, on loopback too', () => {
    expect(
      startupAuthProblems({ host: '127.0.0.1', keys: [['MCP_API_KEY', 'k3y-0f-15-chars']], allowNoAuth: false }),
    ).toEqual(['MCP_API_KEY: too short (15 characters, at least 16)']);
  });

  it('accepts a long random key anywhere', () => {
    for (const host of ['127.0.0.1', '0.0.0.0', '::'])
      expect(startupAuthProblems({ host, keys: [['MCP_API_KEY', GOOD]], allowNoAuth: false })).toEqual([]);
  });

  it('beyond loopback, no key stops the start unless LECTERN_ALLOW_NO_AUTH=true; loopback needs none', () => {
    const keys = [
      ['CONVERTER_API_KEY', undefined],
      ['MCP_API_KEY', ''],
    ] as const;
    const open = startupAuthProblems({ host: '0.0.0.0', keys, allowNoAuth: false });
    expect(open).toHaveLength(1);
    expect(open[0]).toMatch(
      /^CONVERTER_API_KEY or MCP_API_KEY: required when listening beyond loopback \(HOST=0\.0\.0\.0\)/,
    );
    expect(open[0]).toMatch(/LECTERN_ALLOW_NO_AUTH=true/);
    expect(startupAuthProblems({ host: '0.0.0.0', keys, allowNoAuth: true })).toEqual([]);
    for (const host of ['127.0.0.1', 'localhost', '::1', '[::1]'])
      expect(startupAuthProblems({ host, keys, allowNoAuth: false })).toEqual([]);
  });

  it('another required credential (OAuth) stands in for the key', () => {
    expect(
      startupAuthProblems({
        host: '0.0.0.0',
        keys: [['MCP_API_KEY', undefined]],
        allowNoAuth: false,
        otherCredential: true,
      }),
    ).toEqual([]);
  });

  it('checks METRICS_TOKEN like a key, but a metrics token alone is no credential beyond loopback', () => {
    expect(
      startupAuthProblems({
        host: '127.0.0.1',
        keys: [['MCP_API_KEY', GOOD]],
        tokens: [['METRICS_TOKEN', 'change-me-metrics']],
        allowNoAuth: false,
      }),
    ).toEqual([expect.stringMatching(/^METRICS_TOKEN: a placeholder/)]);
    const open = startupAuthProblems({
      host: '0.0.0.0',
      keys: [['MCP_API_KEY', undefined]],
      tokens: [['METRICS_TOKEN', GOOD]],
      allowNoAuth: false,
    });
    expect(open).toEqual([expect.stringMatching(/^MCP_API_KEY: required when listening beyond loopback/)]);
  });

  it('lists every problem', () => {
    expect(
      startupAuthProblems({
        host: '0.0.0.0',
        keys: [
          ['EXTRACTION_API_KEY', 'short'],
          ['MCP_API_KEY', 'change-me'],
        ],
        allowNoAuth: false,
      }),
    ).toEqual([
      'EXTRACTION_API_KEY: too short (5 characters, at least 16)',
      expect.stringMatching(/^MCP_API_KEY: a placeholder/),
    ]);
  });
});

describe('AUTH_MODE at start (issue 30)', () => {
  const base = { OAUTH_CLOCK_SKEW_S: 60 };
  it('key needs a key, none refuses one, oauth needs its issuer and resource URI', () => {
    const facts = (env: Record<string, unknown>, key?: string) => ({
      host: '127.0.0.1',
      keys: [['MCP_API_KEY', key]] as const,
      allowNoAuth: false,
      authEnv: { ...base, ...env },
    });
    expect(startupAuthProblems(facts({ AUTH_MODE: 'key' }))).toEqual([
      "AUTH_MODE=key: no key is set (MCP_API_KEY or the service's own)",
    ]);
    expect(startupAuthProblems(facts({ AUTH_MODE: 'none' }, GOOD))).toEqual([
      expect.stringMatching(/^AUTH_MODE=none: a key is set/),
    ]);
    expect(startupAuthProblems(facts({ AUTH_MODE: 'oauth' }))).toEqual([
      expect.stringMatching(/^OAUTH_ISSUER: required/),
      expect.stringMatching(/^OAUTH_RESOURCE: required/),
    ]);
    expect(
      startupAuthProblems(
        facts({ AUTH_MODE: 'oauth', OAUTH_ISSUER: 'https://idp.example', OAUTH_RESOURCE: 'https://docs.example' }),
      ),
    ).toEqual([]);
    expect(startupAuthProblems(facts({}, GOOD))).toEqual([]);
  });

  it('oauthSettings: undefined unless AUTH_MODE=oauth; introspection needs both client credentials', () => {
    expect(oauthSettings({ ...base, AUTH_MODE: 'key' })).toBeUndefined();
    const env = {
      ...base,
      AUTH_MODE: 'oauth' as const,
      OAUTH_ISSUER: 'https://idp.example',
      OAUTH_RESOURCE: 'https://r.example',
    };
    expect(oauthSettings(env)).toMatchObject({
      issuer: 'https://idp.example',
      resource: 'https://r.example',
      clockSkewSeconds: 60,
    });
    expect(() => oauthSettings({ ...env, OAUTH_INTROSPECTION_CLIENT_ID: 'rs' })).toThrow(AuthConfigError);
  });
});
