// SPDX-License-Identifier: AGPL-3.0-or-later
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const tool = join(resolve(dirname(fileURLToPath(import.meta.url))), 'spdx.mjs');
const run = (...args: string[]) =>
  promisify(execFile)(process.execPath, [tool, ...args]).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );

/** Issue 27: SPDX identifiers added to every source file lacking one, and a check for CI (run on a temp tree). */
describe('tools/spdx.mjs', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lectern-spdx-'));
    await mkdir(join(dir, 'libs', 'a', 'src'), { recursive: true });
    await mkdir(join(dir, 'node_modules', 'pkg'), { recursive: true });
    await mkdir(join(dir, 'dist'), { recursive: true });
    await writeFile(join(dir, 'libs', 'a', 'src', 'index.ts'), 'export const a = 1;\n');
    await writeFile(join(dir, 'libs', 'a', 'src', 'tool.mjs'), '#!/usr/bin/env node\nconsole.log(1);\n');
    await writeFile(
      join(dir, 'libs', 'a', 'src', 'done.cjs'),
      "// SPDX-License-Identifier: AGPL-3.0-or-later\n'use strict';\n",
    );
    await writeFile(join(dir, 'libs', 'a', 'src', 'notes.md'), '# not source\n');
    await writeFile(join(dir, 'node_modules', 'pkg', 'index.js'), 'module.exports = 1;\n');
    await writeFile(join(dir, 'dist', 'main.cjs'), 'built\n');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('--check lists the source files lacking the line and fails; adding it fixes them and the check passes', async () => {
    const before = await run('--check', dir);
    expect(before.code).toBe(1);
    expect(before.stdout.split('\n').filter(Boolean).sort()).toEqual([
      'libs/a/src/index.ts: no SPDX-License-Identifier line',
      'libs/a/src/tool.mjs: no SPDX-License-Identifier line',
    ]);

    const added = await run(dir);
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('added to 2 file(s)');
    expect(await readFile(join(dir, 'libs', 'a', 'src', 'index.ts'), 'utf8')).toBe(
      '// SPDX-License-Identifier: AGPL-3.0-or-later\nexport const a = 1;\n',
    );
    // below the shebang, which must stay the first line
    expect(await readFile(join(dir, 'libs', 'a', 'src', 'tool.mjs'), 'utf8')).toBe(
      '#!/usr/bin/env node\n// SPDX-License-Identifier: AGPL-3.0-or-later\nconsole.log(1);\n',
    );
    // dependencies, builds and other files untouched; a file that had it not doubled
    expect(await readFile(join(dir, 'node_modules', 'pkg', 'index.js'), 'utf8')).toBe('module.exports = 1;\n');
    expect(await readFile(join(dir, 'dist', 'main.cjs'), 'utf8')).toBe('built\n');
    expect(await readFile(join(dir, 'libs', 'a', 'src', 'notes.md'), 'utf8')).toBe('# not source\n');
    expect(await readFile(join(dir, 'libs', 'a', 'src', 'done.cjs'), 'utf8')).toBe(
      "// SPDX-License-Identifier: AGPL-3.0-or-later\n'use strict';\n",
    );

    const after = await run('--check', dir);
    expect(after.code).toBe(0);
    expect(after.stdout).toBe('');
    expect((await run(dir)).stdout).toContain('added to 0 file(s)');
  });
});
