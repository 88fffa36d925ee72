// SPDX-License-Identifier: AGPL-3.0-or-later
import type { FastifyInstance } from 'fastify';
import { pino, type Logger } from 'pino';

/** A logger for tests; set LECTERN_TEST_LOG=debug to see service logs while debugging a test. */
export const silentLogger = (): Logger => pino({ level: process.env['LECTERN_TEST_LOG'] ?? 'silent' });

/** Listen on a free loopback port and return the base URL. */
export const listenOnFreePort = async (app: FastifyInstance): Promise<string> => {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no TCP address');
  return `http://127.0.0.1:${address.port}`;
};
