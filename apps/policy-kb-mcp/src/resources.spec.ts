// SPDX-License-Identifier: AGPL-3.0-or-later
import { join } from 'node:path';
import { createPolicyRevision, policyRevisionResources } from '@lectern/policy-kb';
import {
  fixtureFile,
  makePolicyPdf,
  promptToolCalls,
  repoRoot,
  runInspectorCli,
  testModelEnv,
  unknownToolNames,
} from '@lectern/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { startPolicyKb, type RunningPolicyKb } from './policy-kb.testkit.js';

/*
 * Issue 30: policy revisions as MCP resources, the policy_in_force prompt and the source/revision_id completions,
 * through real clients: the SDK's over Streamable HTTP and over stdio (`lectern mcp policies` on the same DATA_DIR),
 * and the MCP Inspector's CLI over both.
 */
const REV = 'rev_TEST_POL_2020_01';
const URI = `lectern://policies/TEST_POL/revisions/${REV}`;
const signal = new AbortController().signal;
let kb: RunningPolicyKb;

beforeAll(async () => {
  // the generated test model: nothing here depends on what the embeddings mean (libs/testing test-model.ts)
  kb = await startPolicyKb(testModelEnv());
  await kb.deps.registry.createPolicy({ source: 'TEST_POL', title: 'Test Policy', category: 'national_policy' });
  await kb.deps.registry.createPolicy({ source: 'OTHER_POL', title: 'Other Policy', category: 'local_plan' });
  await createPolicyRevision(kb.deps, {
    source: 'TEST_POL',
    revision_id: REV,
    version_label: 'January 2020',
    effective_from: '2020-01-01',
  });
  await createPolicyRevision(kb.deps, {
    source: 'OTHER_POL',
    revision_id: 'rev_B',
    version_label: 'B',
    effective_from: '2021-01-01',
  });
  const file_path = fixtureFile('resources-alpha-policy.pdf', makePolicyPdf('alpha'));
  const ingested = await kb.call('ingest_policy_revision', { source: 'TEST_POL', revision_id: REV, file_path });
  expect(ingested.body).toMatchObject({ status: 'success' });
}, 120_000);
afterAll(async () => kb?.stop());

describe('policy-kb-mcp resources: lectern://policies/{source}/revisions/{revision_id}', () => {
  it('advertises the template and lists every revision by source and revision id', async () => {
    const { resourceTemplates } = await kb.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'lectern://policies/{source}/revisions/{revision_id}',
    ]);
    const { resources, nextCursor } = await kb.client.listResources();
    expect(nextCursor).toBeUndefined();
    expect(resources.map((r) => [r.uri, r.title])).toEqual([
      ['lectern://policies/OTHER_POL/revisions/rev_B', 'Other Policy (B)'],
      [URI, 'Test Policy (January 2020)'],
    ]);
    expect(resources[1]?.description).toMatch(/^TEST_POL active, in force 2020-01-01 to now, \d+ chunks$/);
  });

  it('reads a revision: its registry metadata and its text, the same words get_policy_section answers', async () => {
    const read = await kb.client.readResource({ uri: URI });
    const [meta, body] = read.contents as Array<{ uri: string; mimeType: string; text: string }>;
    expect(meta?.mimeType).toBe('application/json');
    expect(JSON.parse(meta?.text ?? '{}')).toMatchObject({
      source: 'TEST_POL',
      title: 'Test Policy',
      revision_id: REV,
      version_label: 'January 2020',
      effective_from: '2020-01-01',
      effective_to: null,
      status: 'active',
      truncated: false,
    });
    expect(body?.mimeType).toBe('text/plain');
    const para = await kb.call('get_policy_section', { source: 'TEST_POL', section_ref: 'Para 4', revision_id: REV });
    expect(para.body).toMatchObject({ status: 'success' });
    expect(body?.text).toContain(para.body['text'] as string);
    expect(body?.text).toContain('Paragraph 1 of the alpha policy');
    expect(body?.text).toContain('Paragraph 9 of the alpha policy');
    // a revision not ingested yet: metadata, and no text
    const pending = await kb.client.readResource({ uri: 'lectern://policies/OTHER_POL/revisions/rev_B' });
    expect(JSON.parse((pending.contents[0] as { text: string }).text)).toMatchObject({ status: 'processing' });
    expect((pending.contents[1] as { text: string }).text).toBe('');
  });

  it('refuses an unknown policy or revision (-32002) and ids that are not spec 001 ids', async () => {
    await expect(kb.client.readResource({ uri: 'lectern://policies/NOPE/revisions/r1' })).rejects.toThrow(
      /-32002.*Policy not found: NOPE/,
    );
    await expect(kb.client.readResource({ uri: 'lectern://policies/TEST_POL/revisions/r1' })).rejects.toThrow(
      /-32002.*Revision not found: r1 for policy TEST_POL/,
    );
    for (const uri of [
      'lectern://policies/TEST_POL/revisions/..%2F..%2Fetc',
      'lectern://policies/TEST_POL/revisions/a__b',
      'lectern://policies/test_pol/revisions/r1',
    ])
      await expect(kb.client.readResource({ uri })).rejects.toThrow(/-32602.*Not a policy revision URI/);
  });

  it('caps the text with a marker naming the get_policy_section call that reads on, and pages the listing', async () => {
    const capped = policyRevisionResources(kb.deps, { maxChars: 150 });
    const [meta, body] = (await capped.read(URI, signal)) as Array<{ text: string }>;
    const { total_chars } = JSON.parse(meta?.text ?? '{}') as { total_chars: number };
    const marker = new RegExp(
      `\\n\\n\\[lectern: truncated, ${total_chars - 150} more characters; call get_policy_section with source ` +
        `"TEST_POL", revision_id "${REV}", section_ref "([^"]+)" and the sections after it\\]$`,
    );
    expect(body?.text).toMatch(marker);
    const sectionRef = marker.exec(body?.text ?? '')?.[1] ?? '';
    const readOn = await kb.call('get_policy_section', {
      source: 'TEST_POL',
      section_ref: sectionRef,
      revision_id: REV,
    });
    expect(readOn.body).toMatchObject({ status: 'success' });
    const paged = policyRevisionResources(kb.deps, { pageSize: 1 });
    const one = await paged.list(undefined, signal);
    expect(one.resources.map((r) => r.name)).toEqual(['OTHER_POL/rev_B']);
    const two = await paged.list(one.nextCursor, signal);
    expect(two.resources.map((r) => r.name)).toEqual([`TEST_POL/${REV}`]);
    expect(two.nextCursor).toBeUndefined();
  });
});

const expectRealToolCalls = async (client: Client, prompt: GetPromptResult) => {
  const calls = promptToolCalls(prompt);
  expect(calls.map((c) => c.tool)).toEqual(['list_policy_revisions', 'search_policy', 'get_policy_section']);
  expect(unknownToolNames(calls, (await client.listTools()).tools)).toEqual([]);
};

describe('policy-kb-mcp prompts and completions', () => {
  it('policy_in_force names the real tools and arguments of this server', async () => {
    const { prompts } = await kb.client.listPrompts();
    expect(prompts.map((p) => [p.name, p.arguments?.map((a) => `${a.name}${a.required ? '' : '?'}`)])).toEqual([
      ['policy_in_force', ['source', 'date', 'topic']],
    ]);
    const got = await kb.client.getPrompt({
      name: 'policy_in_force',
      arguments: { source: 'TEST_POL', date: '2021-05-01', topic: 'cycle parking' },
    });
    expect(JSON.stringify(got.messages)).toContain('effective_date=\\"2021-05-01\\"');
    await expectRealToolCalls(kb.client, got);
    await expect(
      kb.client.getPrompt({
        name: 'policy_in_force',
        arguments: { source: 'TEST_POL', date: '2021-02-30', topic: 'x' },
      }),
    ).rejects.toThrow(/-32602.*date/);
  });

  it('completes source slugs and revision ids from the registry (by the chosen source)', async () => {
    const prompt = { type: 'ref/prompt' as const, name: 'policy_in_force' };
    const template = { type: 'ref/resource' as const, uri: 'lectern://policies/{source}/revisions/{revision_id}' };
    expect((await kb.client.complete({ ref: prompt, argument: { name: 'source', value: '' } })).completion).toEqual({
      values: ['OTHER_POL', 'TEST_POL'],
      total: 2,
      hasMore: false,
    });
    const te = await kb.client.complete({ ref: template, argument: { name: 'source', value: 'te' } });
    expect(te.completion.values).toEqual(['TEST_POL']);
    const revs = await kb.client.complete({
      ref: template,
      argument: { name: 'revision_id', value: 'rev' },
      context: { arguments: { source: 'OTHER_POL' } },
    });
    expect(revs.completion.values).toEqual(['rev_B']);
    const all = await kb.client.complete({ ref: template, argument: { name: 'revision_id', value: 'rev_' } });
    expect(all.completion.values).toEqual(['rev_B', REV]);
    const none = await kb.client.complete({ ref: prompt, argument: { name: 'topic', value: 'x' } });
    expect(none.completion.values).toEqual([]);
  });
});

describe('over stdio and with the MCP Inspector CLI', () => {
  const lectern = () => [process.execPath, join(repoRoot(), 'apps', 'cli', 'bin', 'lectern.cjs'), 'mcp', 'policies'];
  const stdioEnv = () => ({
    ...(process.env as Record<string, string>),
    ...testModelEnv(),
    DATA_DIR: kb.dataDir,
    LOG_LEVEL: 'warn',
  });

  it('lectern mcp policies (the SDK client over stdio): resources, prompts and completions', async () => {
    const [command = '', ...args] = lectern();
    const client = new Client({ name: 'stdio-test', version: '0' });
    await client.connect(new StdioClientTransport({ command, args, env: stdioEnv(), stderr: 'pipe' }));
    try {
      expect((await client.listResources()).resources.map((r) => r.uri)).toContain(URI);
      const read = await client.readResource({ uri: URI });
      expect((read.contents[1] as { text: string }).text).toContain('Paragraph 1 of the alpha policy');
      const got = await client.getPrompt({
        name: 'policy_in_force',
        arguments: { source: 'TEST_POL', date: '2021-05-01', topic: 'cycle parking' },
      });
      await expectRealToolCalls(client, got);
      const done = await client.complete({
        ref: { type: 'ref/prompt', name: 'policy_in_force' },
        argument: { name: 'source', value: 'O' },
      });
      expect(done.completion.values).toEqual(['OTHER_POL']);
    } finally {
      await client.close();
    }
  }, 120_000);

  it('the Inspector CLI lists and reads the resources and prompts over Streamable HTTP and stdio', async () => {
    const targets: Array<[string, string[], NodeJS.ProcessEnv]> = [
      ['http', [`${kb.baseUrl}/mcp`], process.env],
      ['stdio', lectern(), stdioEnv()],
    ];
    for (const [, target, env] of targets) {
      const listed = (await runInspectorCli(target, 'resources/list', { env })) as {
        resources: Array<{ uri: string }>;
      };
      expect(listed.resources.map((r) => r.uri)).toEqual(['lectern://policies/OTHER_POL/revisions/rev_B', URI]);
      const read = (await runInspectorCli(target, 'resources/read', { env, args: ['--uri', URI] })) as {
        contents: Array<{ text: string }>;
      };
      expect(read.contents[1]?.text).toContain('Paragraph 1 of the alpha policy');
      const prompts = (await runInspectorCli(target, 'prompts/list', { env })) as { prompts: Array<{ name: string }> };
      expect(prompts.prompts.map((p) => p.name)).toEqual(['policy_in_force']);
      const got = (await runInspectorCli(target, 'prompts/get', {
        env,
        args: [
          '--prompt-name',
          'policy_in_force',
          '--prompt-args',
          'source=TEST_POL',
          'date=2021-05-01',
          'topic=parking',
        ],
      })) as GetPromptResult;
      expect(promptToolCalls(got).map((c) => c.tool)).toEqual([
        'list_policy_revisions',
        'search_policy',
        'get_policy_section',
      ]);
    }
  }, 240_000);
});
