import { createRequire } from 'node:module';

/**
 * The version of Lectern: the root package.json's, the one place it is set (`npm version` changes it). Read at run
 * time relative to this module, which is `libs/runtime/src/` under the root in a checkout, in the production build
 * (its modules keep their source paths: tools/build.mjs) and in an installed package alike.
 */
export const LECTERN_VERSION: string = (createRequire(import.meta.url)('../../../package.json') as { version: string })
  .version;
