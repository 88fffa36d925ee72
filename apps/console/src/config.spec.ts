// SPDX-License-Identifier: AGPL-3.0-or-later
import { ConfigError } from '@lectern/runtime';
import { consoleOAuth, loadConfig } from './config.js';

describe('console configuration: OAuth sign-in', () => {
  const oauth = {
    CONSOLE_OAUTH_ISSUER: 'https://id.example.com/realms/lectern',
    CONSOLE_OAUTH_CLIENT_ID: 'lectern-console',
    CONSOLE_OAUTH_RESOURCE: 'https://lectern.example.com/',
  };

  it('is off by default and with empty values (the key form)', () => {
    expect(consoleOAuth(loadConfig({}))).toBeUndefined();
    expect(
      consoleOAuth(loadConfig({ CONSOLE_OAUTH_ISSUER: '', CONSOLE_OAUTH_CLIENT_ID: ' ', CONSOLE_OAUTH_RESOURCE: '' })),
    ).toBeUndefined();
  });

  it('takes all three, asking for every Lectern scope by default', () => {
    expect(consoleOAuth(loadConfig(oauth))).toEqual({
      issuer: oauth.CONSOLE_OAUTH_ISSUER,
      clientId: 'lectern-console',
      resource: oauth.CONSOLE_OAUTH_RESOURCE,
      scope: 'openid lectern:read lectern:write lectern:admin',
    });
    expect(consoleOAuth(loadConfig({ ...oauth, CONSOLE_OAUTH_SCOPE: 'lectern:read' }))?.scope).toBe('lectern:read');
  });

  it('refuses part of it, a bad URL or a bad scope, naming the variable', () => {
    expect(() => loadConfig({ CONSOLE_OAUTH_ISSUER: oauth.CONSOLE_OAUTH_ISSUER })).toThrow(
      /CONSOLE_OAUTH_ISSUER, CONSOLE_OAUTH_CLIENT_ID and CONSOLE_OAUTH_RESOURCE: set all three/,
    );
    expect(() => loadConfig({ ...oauth, CONSOLE_OAUTH_ISSUER: 'not a url' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...oauth, CONSOLE_OAUTH_SCOPE: 'lectern:read  "x"' })).toThrow(/CONSOLE_OAUTH_SCOPE/);
  });
});
