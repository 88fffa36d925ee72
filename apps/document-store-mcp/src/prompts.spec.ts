// SPDX-License-Identifier: AGPL-3.0-or-later
import { join } from 'node:path';
import { CLIENT_CHUNKING, createProject } from '@lectern/document-store';
import { policyKbMcpService } from '@lectern/policy-kb';
import {
  connectMcp,
  fixtureFile,
  listenOnFreePort,
  makeTextPdf,
  promptToolCalls,
  repoRoot,
  runInspectorCli,
  silentLogger,
  testModelEnv,
  unknownToolNames,
} from '@lectern/testing';
import { createHttpApp, mountMcp } from '@lectern/transport';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { GetPromptResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance } from 'fastify';
import { startDocumentStore, type RunningDocumentStore } from './document-store.testkit.js';

/*
 * Issue 30: document-store-mcp's prompts (review_application, cite_and_answer) and its completions (application_ref,
 * document_id, project) through real clients — the SDK's over Streamable HTTP and stdio (`lectern mcp documents` on
 * the same DATA_DIR) and the MCP Inspector's CLI. Every tool a prompt names must be in this server's or
 * policy-kb-mcp's `tools/list` (the platform's), with those argument names.
 */
let ds: RunningDocumentStore;
let policyKb: FastifyInstance;
let platformTools: Tool[];
let documentId = '';

beforeAll(async () => {
  // the generated test model: nothing here depends on what the embeddings mean (libs/testing test-model.ts)
  ds = await startDocumentStore(testModelEnv());
  const file_path = fixtureFile('prompt-note.pdf', makeTextPdf([['# Site note', 'The hedgerow survey is attached.']]));
  const ingested = await ds.call('ingest_document', { file_path, application_ref: '25/01178/REM' });
  expect(ingested.body).toMatchObject({ status: 'success' });
  documentId = (ingested.body as { document_id: string }).document_id;
  await createProject(ds.deps, { project: 'papers', chunking: CLIENT_CHUNKING });
  await createProject(ds.deps, { project: 'planning', chunking: CLIENT_CHUNKING });
  // policy-kb-mcp's real server (its tools/list needs no stores): the other half of the platform's tools
  policyKb = createHttpApp({ service: 'policy-kb-mcp', logger: silentLogger(), apiKey: undefined });
  mountMcp(policyKb, policyKbMcpService());
  const policyClient = await connectMcp(await listenOnFreePort(policyKb), 'streamable-http');
  platformTools = [...(await ds.client.listTools()).tools, ...(await policyClient.listTools()).tools];
  await policyClient.close();
}, 120_000);
afterAll(async () => {
  await policyKb?.close();
  await ds?.stop();
});

const review = {
  name: 'review_application',
  arguments: { application_ref: '25/01178/REM', validation_date: '2024-03-01' },
};
const cite = { name: 'cite_and_answer', arguments: { project: 'papers', question: 'What does the survey find?' } };

const expectReal = (prompt: GetPromptResult, tools: string[]) => {
  const calls = promptToolCalls(prompt);
  expect(calls.map((c) => c.tool)).toEqual(tools);
  expect(unknownToolNames(calls, platformTools)).toEqual([]);
};
const REVIEW_TOOLS = [
  'list_ingested_documents',
  'search_application_docs',
  'get_document_text',
  'list_policy_documents',
  'search_policy',
  'get_policy_section',
];

describe('document-store-mcp prompts', () => {
  it('lists review_application and cite_and_answer with their arguments', async () => {
    const { prompts } = await ds.client.listPrompts();
    expect(prompts.map((p) => [p.name, p.arguments?.map((a) => [a.name, a.required])])).toEqual([
      [
        'review_application',
        [
          ['application_ref', true],
          ['validation_date', true],
        ],
      ],
      [
        'cite_and_answer',
        [
          ['project', true],
          ['question', true],
        ],
      ],
    ]);
  });

  it('review_application: the real tools of the platform, searching policy as in force on the validation date', async () => {
    const got = await ds.client.getPrompt(review);
    expectReal(got, REVIEW_TOOLS);
    const text = JSON.stringify(got.messages);
    expect(text).toContain('`list_ingested_documents(application_ref=\\"25/01178/REM\\")`');
    expect(text).toContain('effective_date=\\"2024-03-01\\"');
  });

  it('cite_and_answer: the project tools, with the question', async () => {
    const got = await ds.client.getPrompt(cite);
    expectReal(got, ['query_hybrid', 'find_chunks']);
    expect(JSON.stringify(got.messages)).toContain('What does the survey find?');
  });

  it('refuses a date that is not one, a project id that is not one, and a missing argument', async () => {
    await expect(
      ds.client.getPrompt({
        name: 'review_application',
        arguments: { application_ref: 'A/1', validation_date: '2023-02-29' },
      }),
    ).rejects.toThrow(/-32602.*validation_date/);
    await expect(
      ds.client.getPrompt({ name: 'cite_and_answer', arguments: { project: '../x', question: 'q' } }),
    ).rejects.toThrow(/-32602.*project/);
    await expect(ds.client.getPrompt({ name: 'cite_and_answer', arguments: { project: 'papers' } })).rejects.toThrow(
      /-32602.*question/,
    );
  });
});

describe('document-store-mcp completions', () => {
  it('application refs and projects for the prompts, document ids for the resource template', async () => {
    const complete = async (ref: Parameters<Client['complete']>[0]['ref'], name: string, value: string) =>
      (await ds.client.complete({ ref, argument: { name, value } })).completion;
    const reviewRef = { type: 'ref/prompt' as const, name: 'review_application' };
    expect(await complete(reviewRef, 'application_ref', '25/')).toEqual({
      values: ['25/01178/REM'],
      total: 1,
      hasMore: false,
    });
    expect((await complete(reviewRef, 'application_ref', '99')).values).toEqual([]);
    const citeRef = { type: 'ref/prompt' as const, name: 'cite_and_answer' };
    // the default project (DOCUMENT_STORE_PROJECT) is a project too
    expect((await complete(citeRef, 'project', '')).values).toEqual(['application_docs', 'papers', 'planning']);
    expect((await complete(citeRef, 'project', 'PA')).values).toEqual(['papers']);
    const docs = { type: 'ref/resource' as const, uri: 'lectern://documents/{document_id}' };
    expect((await complete(docs, 'document_id', documentId.slice(0, 4))).values).toEqual([documentId]);
  });
});

describe('document-store-mcp over stdio and with the MCP Inspector CLI', () => {
  const lectern = () => [process.execPath, join(repoRoot(), 'apps', 'cli', 'bin', 'lectern.cjs'), 'mcp', 'documents'];
  const env = () => ({
    ...(process.env as Record<string, string>),
    ...testModelEnv(),
    DATA_DIR: ds.dataDir,
    LOG_LEVEL: 'warn',
  });

  it('lectern mcp documents (the SDK client over stdio): prompts, completions and the document resource', async () => {
    const [command = '', ...args] = lectern();
    const client = new Client({ name: 'stdio-test', version: '0' });
    await client.connect(new StdioClientTransport({ command, args, env: env(), stderr: 'pipe' }));
    try {
      expectReal(await client.getPrompt(review), REVIEW_TOOLS);
      const done = await client.complete({
        ref: { type: 'ref/prompt', name: 'review_application' },
        argument: { name: 'application_ref', value: '' },
      });
      expect(done.completion.values).toEqual(['25/01178/REM']);
      const read = await client.readResource({ uri: `lectern://documents/${documentId}` });
      expect((read.contents[1] as { text: string }).text).toContain('hedgerow survey');
    } finally {
      await client.close();
    }
  }, 120_000);

  it('the Inspector CLI lists and gets the prompts, and lists and reads the document resource, over Streamable HTTP and stdio', async () => {
    const args = ['--prompt-name', 'review_application', '--prompt-args', 'application_ref=25/01178/REM'];
    const listed = (await runInspectorCli([`${ds.baseUrl}/mcp`], 'prompts/list')) as {
      prompts: Array<{ name: string }>;
    };
    expect(listed.prompts.map((p) => p.name)).toEqual(['review_application', 'cite_and_answer']);
    for (const [target, targetEnv] of [
      [[`${ds.baseUrl}/mcp`], process.env],
      [lectern(), env()],
    ] as const) {
      const got = (await runInspectorCli(target, 'prompts/get', {
        env: targetEnv,
        args: [...args, 'validation_date=2024-03-01'],
      })) as GetPromptResult;
      expectReal(got, REVIEW_TOOLS);
      const uri = `lectern://documents/${documentId}`;
      const resources = (await runInspectorCli(target, 'resources/list', { env: targetEnv })) as {
        resources: Array<{ uri: string }>;
      };
      expect(resources.resources.map((r) => r.uri)).toEqual([uri]);
      const read = (await runInspectorCli(target, 'resources/read', { env: targetEnv, args: ['--uri', uri] })) as {
        contents: Array<{ uri: string; text?: string }>;
      };
      expect(read.contents.map((c) => c.uri)).toContain(uri);
      expect(read.contents[1]?.text).toContain('hedgerow survey');
    }
  }, 240_000);
});
