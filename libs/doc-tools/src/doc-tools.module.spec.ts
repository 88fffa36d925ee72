// SPDX-License-Identifier: AGPL-3.0-or-later
import { INGEST_DEADLINE_GRACE_MS, mcpTimeouts, serviceToolDeadlineMs } from '@lectern/platform';
import { docToolsMcpService } from './doc-tools.module.js';

describe("the doc tools' deadlines (extraction-api's /mcp)", () => {
  it('bounds doc_index_build by DOC_INDEX_TIMEOUT_S and every other tool by MCP_TOOL_TIMEOUT_S', () => {
    const extraction = docToolsMcpService(undefined, mcpTimeouts({ MCP_TOOL_TIMEOUT_S: 60 }, 600));
    expect(serviceToolDeadlineMs(extraction, 'doc_index_build')).toBe(600_000 + INGEST_DEADLINE_GRACE_MS);
    expect(serviceToolDeadlineMs(extraction, 'doc_search')).toBe(60_000);
  });
});
