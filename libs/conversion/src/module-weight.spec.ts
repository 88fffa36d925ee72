// SPDX-License-Identifier: AGPL-3.0-or-later
// Loading @lectern/conversion is part of a fresh process's first conversion: it must not evaluate every contract's
// schemas (the `@lectern/contracts` barrel), the runtime's environment parsers or pino (issue 28: 0.15 -> 0.07 CPU-s).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../../..', import.meta.url));

describe('what loading @lectern/conversion evaluates', () => {
  let inputs: string[];
  let packages: string[];
  beforeAll(async () => {
    const out = await build({
      entryPoints: [join(root, 'libs/conversion/src/index.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      tsconfig: join(root, 'tsconfig.json'),
      absWorkingDir: root,
      metafile: true,
      write: false,
      outdir: join(root, 'dist-unused'),
      logLevel: 'silent',
    });
    inputs = Object.keys(out.metafile.inputs);
    packages = Object.values(out.metafile.outputs).flatMap((o) =>
      o.imports.filter((i) => i.external).map((i) => i.path),
    );
  }, 60_000);

  it('reads the conversion and error contracts only, not the contracts barrel or the runtime barrel', () => {
    expect(inputs).toContain('libs/contracts/src/conversion.schema.ts');
    expect(inputs).toContain('libs/contracts/src/errors.ts');
    expect(inputs).not.toContain('libs/contracts/src/index.ts');
    expect(inputs).not.toContain('libs/contracts/src/catalog.ts');
    expect(inputs).not.toContain('libs/runtime/src/index.ts');
    expect(inputs).not.toContain('libs/runtime/src/env.ts');
    expect(inputs).toContain('libs/runtime/src/core.ts');
  });

  it('imports no logger package', () => {
    expect(packages).toContain('zod');
    expect(packages).not.toContain('pino');
  });
});
