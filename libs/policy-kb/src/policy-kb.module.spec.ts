// SPDX-License-Identifier: AGPL-3.0-or-later
import { INGEST_DEADLINE_GRACE_MS, mcpTimeouts, serviceToolDeadlineMs } from '@lectern/platform';
import { policyKbMcpService } from './policy-kb.module.js';

describe("policy-kb-mcp's tool deadlines", () => {
  it('bounds ingest_policy_revision by the ingest timeout and every other tool by MCP_TOOL_TIMEOUT_S', () => {
    const policies = policyKbMcpService(undefined, mcpTimeouts({ MCP_TOOL_TIMEOUT_S: 30 }, 1800));
    expect(serviceToolDeadlineMs(policies, 'ingest_policy_revision')).toBe(1_800_000 + INGEST_DEADLINE_GRACE_MS);
    expect(serviceToolDeadlineMs(policies, 'search_policy')).toBe(30_000);
  });
});
