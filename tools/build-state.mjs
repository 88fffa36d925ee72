// SPDX-License-Identifier: AGPL-3.0-or-later
// Whether the production build (`dist/`, tools/build.mjs) is current: read by `npm start` (tools/start-all.mjs) and
// the `lectern` bin before anything else, so it loads nothing but Node's own modules. The build records what it was
// built from (`dist/build-info.json`: every source file esbuild read, the configuration, the apps); it is stale when
// one of them is newer than the build or gone, or when an app was added. An installed package has no sources: its
// `dist/` is what was packed, and is never stale.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The installation root: the repository, or the installed package. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = join(ROOT, 'dist');
export const BUILD_INFO = join(DIST, 'build-info.json');

/**
 * @typedef {{ version: string; builtMs: number; apps: string[]; programs: string[]; inputs: string[] }} BuildInfo
 *   inputs: paths relative to the root
 */

/** Whether this is a source checkout (else an installed package, which cannot build). */
export const hasSources = (root = ROOT) => existsSync(join(root, 'tsconfig.json')) && existsSync(join(root, 'apps'));

/**
 * The apps the build compiles: every `apps/<name>/src/main.ts` but the command line's (its own programs), so an app
 * added under apps/ is built and started with no list to edit.
 */
export const sourceApps = (root = ROOT) =>
  readdirSync(join(root, 'apps'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== 'cli' && existsSync(join(root, 'apps', d.name, 'src', 'main.ts')))
    .map((d) => d.name)
    .sort();

/** @returns {BuildInfo | null} */
export function readBuildInfo(root = ROOT) {
  try {
    return JSON.parse(readFileSync(join(root, 'dist', 'build-info.json'), 'utf8'));
  } catch {
    return null;
  }
}

/**
 * Why the build must run again (null when it is current). A few hundred `stat`s: milliseconds.
 * @param {BuildInfo | null} info
 */
export function staleReason(info, root = ROOT) {
  if (!info) return 'no build yet';
  if (!hasSources(root)) return null;
  const apps = sourceApps(root);
  if (apps.join() !== [...info.apps].sort().join()) return 'the apps changed';
  for (const rel of info.inputs) {
    const file = join(root, rel);
    if (!existsSync(file)) return `${rel} is gone`;
    if (statSync(file).mtimeMs > info.builtMs) return `${rel} changed`;
  }
  return null;
}
