// SPDX-License-Identifier: AGPL-3.0-or-later
import { ESLint } from 'eslint';
import { join } from 'node:path';
import { repoRoot } from './paths.js';

/**
 * The module boundaries are enforced by lint, not by convention (DESIGN.md): a lib importing an app,
 * a lower layer importing a higher one, or a raw client outside its adapter lib is a lint error.
 * The Nx project graph is computed by `npm run lint` (tools/project-graph.mjs) before ESLint runs.
 */
describe('workspace module boundaries (ESLint)', () => {
  const root = repoRoot();
  const eslint = new ESLint({ cwd: root });

  const lint = async (file: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath: join(root, file) });
    return (result?.messages ?? []).filter((m) => m.severity === 2).map((m) => `${m.ruleId}: ${m.message}`);
  };

  it('refuses a lib importing an app', async () => {
    const errors = await lint(
      'libs/auth/src/bad-import.ts',
      "import { buildApp } from '../../../apps/document-store-mcp/src/app.js';\nexport const x = buildApp;\n",
    );
    expect(errors.some((e) => e.startsWith('@nx/enforce-module-boundaries'))).toBe(true);
  });

  it('refuses contracts (the bottom layer) importing a higher layer', async () => {
    const errors = await lint(
      'libs/contracts/src/bad-import.ts',
      "import { tokensMatch } from '@lectern/auth';\nexport const x = tokensMatch;\n",
    );
    expect(errors).toEqual([expect.stringMatching(/^@nx\/enforce-module-boundaries: .*tagged with "layer:contracts"/)]);
  });

  it('refuses the platform (infrastructure) importing a feature lib', async () => {
    const errors = await lint(
      'libs/platform/src/bad-import.ts',
      "import { prepareDocument } from '@lectern/ingestion';\nexport const x = prepareDocument;\n",
    );
    expect(errors).toEqual([expect.stringMatching(/^@nx\/enforce-module-boundaries: .*tagged with "layer:platform"/)]);
  });

  it('lets a feature lib compose itself from the platform, and the conversion job sit below it', async () => {
    expect(
      await lint(
        'libs/policy-kb/src/good-import.ts',
        "import type { Platform } from '@lectern/platform';\nexport type X = Platform;\n",
      ),
    ).toEqual([]);
    expect(
      await lint(
        'libs/platform/src/good-import.ts',
        "import { createConversionSubmitter } from '@lectern/conversion-job';\nexport const x = createConversionSubmitter;\n",
      ),
    ).toEqual([]);
  });

  it('refuses a raw client outside its adapter lib and names the wrapper to use', async () => {
    const errors = await lint('apps/document-store-mcp/src/bad-import.ts', "import 'better-sqlite3';\nexport {};\n");
    expect(errors).toEqual([expect.stringMatching(/no-restricted-imports: .*@lectern\/vector-store/)]);
  });

  it('lets the adapter lib use its own raw client', async () => {
    expect(await lint('libs/vector-store/src/x.adapter.ts', "import 'better-sqlite3';\nexport {};\n")).toEqual([]);
    expect(await lint('libs/vector-store/src/x.adapter.ts', "import 'mupdf';\nexport {};\n")).toEqual([
      expect.stringMatching(/no-restricted-imports: .*@lectern\/conversion/),
    ]);
  });

  it('accepts an app importing libs', async () => {
    const errors = await lint(
      'apps/document-store-mcp/src/good-import.ts',
      "import { createHttpApp } from '@lectern/transport';\nexport const x = createHttpApp;\n",
    );
    expect(errors).toEqual([]);
  });
});
