// SPDX-License-Identifier: AGPL-3.0-or-later
import { Writable } from 'node:stream';
import { createLogger } from './logger.js';

const TOKEN = 'tok_3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c';

const capture = (level = 'trace') => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { log: createLogger('test', level, sink), text: () => lines.join('') };
};

describe('createLogger redaction', () => {
  it('redacts credential headers at any depth and any level, and keeps the rest of the line', () => {
    const { log, text } = capture();
    const headers = { authorization: `Bearer ${TOKEN}`, cookie: `session=${TOKEN}`, 'x-request-id': 'r-1' };
    log.trace({ busboyOptions: { headers } }, 'Providing options to busboy');
    log.debug({ req: { headers } }, 'incoming request');
    log.info({ deep: { a: { b: { headers } } } }, 'nested');
    log.warn({ headers }, 'top level');
    log.child({ request_id: 'r-1' }).error({ err: new Error(`upstream refused Bearer ${TOKEN}`) }, 'in a message');
    const out = text();
    expect(out.split('\n').filter(Boolean)).toHaveLength(5);
    expect(out).not.toContain(TOKEN);
    expect(out).toContain('Providing options to busboy');
    expect(out).toContain('"x-request-id":"r-1"');
    expect(out).toContain('[redacted]');
  });
});
