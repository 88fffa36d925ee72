#!/usr/bin/env node
// SPDX-License-Identifier: AGPL-3.0-or-later
// SPDX licence identifiers (issue 27): every source file of the repository starts with
// `// SPDX-License-Identifier: AGPL-3.0-or-later` (after a `#!` line, and after `'use strict'` never: the identifier
// comes first). Hand-written: the tools that do this (reuse, licensee) are Python or Ruby programs, not npm packages,
// and the rule is one line.
//   node tools/spdx.mjs [dir]          adds the line to every source file lacking it
//   node tools/spdx.mjs --check [dir]  lists the files lacking it; exits 1 when there is one (CI's lint)
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const SPDX_LINE = '// SPDX-License-Identifier: AGPL-3.0-or-later';
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
/** Directories that hold no source of ours (dependencies, builds, generated output). */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'coverage', 'data', 'tmp', '.git', '.nx', '.bundle', 'build']);

/** Every source file under `dir` (generated bundles `.<name>.bundle.mjs` and dot-directories left out). */
export function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    if (d.name.startsWith('.')) return [];
    const path = join(dir, d.name);
    if (d.isDirectory()) return SKIPPED_DIRS.has(d.name) ? [] : sourceFiles(path);
    return d.isFile() && SOURCE.test(d.name) ? [path] : [];
  });
}

/** Whether the text has the identifier in its first lines (after a shebang). */
export const hasSpdx = (text) =>
  text
    .split('\n', 3)
    .some((line) => line.startsWith('// SPDX-License-Identifier:') || line.startsWith('/* SPDX-License-Identifier:'));

/** The text with the identifier added at its top (below a `#!` line). */
export function withSpdx(text) {
  if (hasSpdx(text)) return text;
  if (text.startsWith('#!')) {
    const end = text.indexOf('\n');
    return end === -1 ? `${text}\n${SPDX_LINE}\n` : `${text.slice(0, end + 1)}${SPDX_LINE}\n${text.slice(end + 1)}`;
  }
  return `${SPDX_LINE}\n${text}`;
}

/**
 * Adds the line where it lacks (`check`: only lists those files). Answers the files lacking it, relative to `dir`.
 * @param {string} dir
 * @param {{ check?: boolean }} [options]
 */
export function spdx(dir, { check = false } = {}) {
  const lacking = [];
  for (const file of sourceFiles(dir)) {
    const text = readFileSync(file, 'utf8');
    if (hasSpdx(text)) continue;
    lacking.push(relative(dir, file));
    if (!check) writeFileSync(file, withSpdx(text));
  }
  return lacking;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const dir = resolve(args.find((a) => !a.startsWith('--')) ?? resolve(import.meta.dirname, '..'));
  const lacking = spdx(dir, { check });
  if (check) {
    for (const file of lacking) process.stdout.write(`${file}: no SPDX-License-Identifier line\n`);
    if (lacking.length > 0) {
      process.stderr.write(`${lacking.length} source file(s) lack "${SPDX_LINE}": run node tools/spdx.mjs\n`);
      process.exit(1);
    }
  } else process.stdout.write(`SPDX identifier added to ${lacking.length} file(s)\n`);
}
