// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * The size of each MCP server's `tools/list` answer (issue 30: "trimmed of needless bounds"), as a client receives
 * it: the three MCP servers are started in-process as their testkits compose them and asked by a real MCP client
 * over Streamable HTTP. Prints, per server, the tools, the bytes of the `tools` array as JSON, and how many times
 * `9007199254740991` (Number.MAX_SAFE_INTEGER, zod's bound for `.int()`) appears. Deterministic (no timing), so one
 * run per tree is the measurement: run it on the tree before a change and after it.
 *
 *   npx tsx bench/mcp/tools-list-size.bench.ts [--out bench/mcp/results/tools-list.json]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startDocumentStore } from '../../apps/document-store-mcp/src/document-store.testkit.js';
import { startPolicyKb } from '../../apps/policy-kb-mcp/src/policy-kb.testkit.js';
import { startExtractionApi } from '../../apps/extraction-api/src/doc-tools.testkit.js';

const { values } = parseArgs({ options: { out: { type: 'string' } } });

const measure = async (client: Client) => {
  const { tools } = await client.listTools();
  const json = JSON.stringify(tools);
  return {
    tools: tools.length,
    bytes: Buffer.byteLength(json),
    max_safe_integer: json.split('9007199254740991').length - 1,
  };
};

const rows: Record<string, Awaited<ReturnType<typeof measure>>> = {};
for (const [name, start] of [
  ['document-store-mcp', () => startDocumentStore()],
  ['policy-kb-mcp', () => startPolicyKb()],
  ['extraction-api', () => startExtractionApi()],
] as const) {
  const service = await start();
  try {
    rows[name] = await measure(service.client);
  } finally {
    await service.stop();
  }
}
console.table(rows);
if (values.out) {
  mkdirSync(dirname(values.out), { recursive: true });
  writeFileSync(values.out, `${JSON.stringify(rows, null, 2)}\n`);
}
process.exit(0);
