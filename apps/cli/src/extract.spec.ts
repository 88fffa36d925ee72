// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnService, type SpawnedService } from '@lectern/testing';
import { runCli, type CliIo } from './cli.js';

const run = async (argv: string[], env: Record<string, string> = {}, io: Partial<CliIo> = {}) => {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    env: { LOG_LEVEL: 'silent', ...env },
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    ...io,
  });
  return { code, stdout, stderr };
};

/** `lectern extract` against a real extraction-api process (the offline extractor). */
describe('lectern extract', () => {
  let dir: string;
  let service: SpawnedService;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lectern-cli-extract-'));
    service = await spawnService('apps/extraction-api/src/main.ts', 'EXTRACTION_API_PORT', {
      DATA_DIR: join(dir, 'data'),
      EXTRACTOR: 'local',
      EXTRACTION_API_KEY: 'cli-token-0123456789',
    });
    await writeFile(
      join(dir, 'pump.md'),
      '# Pump P-7\n\n## Ratings\n\n| Parameter | Unit | P-7 |\n| --- | --- | --- |\n| Rated flow | l/min | 40 |\n| Rated pressure | bar | 6 |\n',
    );
    await writeFile(join(dir, 'schema.json'), JSON.stringify({ rated_flow: '', rated_pressure: '', noise_level: '' }));
    await writeFile(join(dir, 'bad.json'), '[1, 2]');
  }, 120_000);
  afterAll(async () => {
    await service.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('submits, shows progress on stderr and prints a per-field summary (the token from EXTRACTION_API_KEY)', async () => {
    const { code, stdout, stderr } = await run(
      ['extract', join(dir, 'pump.md'), join(dir, 'schema.json'), '--url', service.baseUrl, '--interval', '100'],
      { EXTRACTION_API_KEY: 'cli-token-0123456789' },
    );
    expect(code).toBe(0);
    expect(stderr).toMatch(/^lectern: task [0-9A-Z]{26}$/m);
    expect(stderr).toMatch(/^lectern: succeeded$/m);
    expect(stdout).toMatch(/^rated_flow = "40 l\/min" {2}\[h\d+-t1\]$/m);
    expect(stdout).toMatch(/^rated_pressure = "6 bar" {2}\[h\d+-t1\]$/m);
    expect(stdout).toMatch(/^noise_level = null$/m);
    expect(stdout).toContain("Field 'noise_level' not found in document");
    expect(stdout).toMatch(/^extractor: local; /m);
  });

  it('--json prints the whole result; a bad schema or a refused token exits 1 with a clear message', async () => {
    const json = await run(
      [
        'extract',
        join(dir, 'pump.md'),
        join(dir, 'schema.json'),
        '--url',
        service.baseUrl,
        '--json',
        '--interval',
        '100',
      ],
      { MCP_API_KEY: 'cli-token-0123456789' },
    );
    expect(json.code).toBe(0);
    const result = JSON.parse(json.stdout) as {
      data: Record<string, unknown>;
      evidence: Record<string, { grounded?: boolean }>;
    };
    expect(result.data).toEqual({
      original_file: 'pump.md',
      rated_flow: '40 l/min',
      rated_pressure: '6 bar',
      noise_level: null,
    });
    expect(result.evidence['rated_flow']?.grounded).toBe(true);
    const bad = await run(['extract', join(dir, 'pump.md'), join(dir, 'bad.json'), '--url', service.baseUrl]);
    expect(bad).toMatchObject({ code: 1, stderr: expect.stringMatching(/bad\.json is not a JSON object skeleton/) });
    const refused = await run(['extract', join(dir, 'pump.md'), join(dir, 'schema.json'), '--url', service.baseUrl], {
      EXTRACTION_API_KEY: 'wrong',
    });
    expect(refused).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/the task was refused: .*\(unauthorized|invalid_token|.*\)/),
    });
  });
});
