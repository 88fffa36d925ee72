// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConversionResultSchema } from '@lectern/contracts';
import { makeTextPdf, numberedPdfFile } from '@lectern/testing';
import { runCli, type CliIo } from './cli.js';

const run = async (argv: string[], io: Partial<CliIo> = {}) => {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    env: { LOG_LEVEL: 'silent' },
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    ...io,
  });
  return { code, stdout, stderr };
};

describe('lectern convert', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lectern-cli-convert-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('prints the Markdown of a PDF on stdout', async () => {
    const pdf = join(dir, 'notice.pdf');
    await writeFile(
      pdf,
      makeTextPdf([
        ['# Planning notice', 'The application for 12 Mill Lane was approved on appeal.'],
        ['# Conditions', 'Work must start within three years.'],
      ]),
    );
    const { code, stdout, stderr } = await run(['convert', pdf]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^#{1,3} Planning notice$/m);
    expect(stdout).toContain('12 Mill Lane was approved on appeal');
    expect(stdout.indexOf('Planning notice')).toBeLessThan(stdout.indexOf('Conditions'));
  });

  it('writes to -o, and --json gives the whole ConversionResult', async () => {
    const pdf = numberedPdfFile(5);
    const out = join(dir, 'out.md');
    const written = await run(['convert', pdf, '-o', out]);
    expect(written.code).toBe(0);
    expect(written.stdout).toBe('');
    expect(await readFile(out, 'utf8')).toContain('Page 5 line 12');
    expect(written.stderr).toContain(`5 pages (text_layer) -> ${out}`);

    const json = await run(['convert', pdf, '--json']);
    expect(json.code).toBe(0);
    const result = ConversionResultSchema.parse(JSON.parse(json.stdout));
    expect(result).toMatchObject({ detected_type: 'pdf', page_count: 5, method: 'text_layer' });
    expect(result.page_map.at(-1)?.page).toBe(5);
  });

  it('draws a page progress bar on an interactive stderr for a long PDF', async () => {
    const { code, stderr } = await run(['convert', numberedPdfFile(40), '-o', join(dir, 'long.md')], {
      stderrIsTTY: true,
    });
    expect(code).toBe(0);
    expect(stderr).toMatch(/generated-40-pages\.pdf \[=+\] 40\/40 pages/);
  });

  it.each([
    ['a missing file', () => join(dir, 'missing.pdf'), /^error: .*(not found|does not exist|no such file)/i],
    [
      'a corrupt PDF',
      async () => {
        const f = join(dir, 'broken.pdf');
        await writeFile(f, '%PDF-1.7\n1 0 obj\n<< /Type /Catalog garbage');
        return f;
      },
      /^error: /,
    ],
    [
      'an unsupported type',
      async () => {
        const f = join(dir, 'deck.pptx');
        await writeFile(f, 'slides');
        return f;
      },
      /^error: .*(unsupported|not supported)/i,
    ],
  ])('exits 1 with the typed error for %s, no stack trace', async (_name, make, message) => {
    const { code, stdout, stderr } = await run(['convert', await make()]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(message);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
