// SPDX-License-Identifier: AGPL-3.0-or-later
import { createRequire } from 'node:module';

/**
 * The version of Lectern: the root package.json's, the one place it is set (`npm version` changes it). Read at run
 * time relative to this module, which is `libs/runtime/src/` under the root in a checkout, in the production build
 * (its modules keep their source paths: tools/build.mjs) and in an installed package alike.
 */
export const LECTERN_VERSION: string = (createRequire(import.meta.url)('../../../package.json') as { version: string })
  .version;

/**
 * Where a network user gets this program's source (AGPL-3.0 §13): `LECTERN_SOURCE_URL` (an operator running a
 * modified copy points it at theirs), else the root package.json's `repository` URL; undefined when neither is set.
 * Unset (the project has no public repository URL), the services serve their own source at `GET /source`
 * (libs/transport/src/source.route.ts), which their `Link: <url>; rel="source"` headers and ready line then name.
 */
export const sourceUrl = (env: Record<string, string | undefined> = process.env): string | undefined => {
  const fromEnv = env['LECTERN_SOURCE_URL']?.trim();
  if (fromEnv) return fromEnv;
  const { repository } = createRequire(import.meta.url)('../../../package.json') as {
    repository?: string | { url?: string };
  };
  const url = typeof repository === 'string' ? repository : repository?.url;
  return url ? url.replace(/^git\+/, '').replace(/\.git$/, '') : undefined;
};
