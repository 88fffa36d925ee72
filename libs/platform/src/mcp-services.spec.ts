// SPDX-License-Identifier: AGPL-3.0-or-later
import { DEFAULT_TOOL_DEADLINE_MS } from '@lectern/transport';
import { INGEST_DEADLINE_GRACE_MS, mcpTimeouts, toolDeadlines } from './mcp-services.js';

describe("an MCP service's tool deadlines", () => {
  it('bounds the ingest tools by the ingest timeout (plus the grace their own deadline needs to answer first) and every other tool by MCP_TOOL_TIMEOUT_S', () => {
    expect(toolDeadlines(['ingest_document'], mcpTimeouts({ MCP_TOOL_TIMEOUT_S: 45 }, 900))).toEqual({
      defaultMs: 45_000,
      byTool: { ingest_document: 900_000 + INGEST_DEADLINE_GRACE_MS },
    });
  });

  it("falls back to the service's own ingest timeout, then to the transport default", () => {
    expect(toolDeadlines(['ingest_document'], mcpTimeouts({ MCP_TOOL_TIMEOUT_S: 30 }), 600_000)).toEqual({
      defaultMs: 30_000,
      byTool: { ingest_document: 600_000 + INGEST_DEADLINE_GRACE_MS },
    });
    expect(toolDeadlines(['ingest_document'], {})).toEqual({ defaultMs: DEFAULT_TOOL_DEADLINE_MS });
  });
});
