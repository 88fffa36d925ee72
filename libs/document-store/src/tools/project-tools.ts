// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  findChunksTool,
  inspectCollectionTool,
  listProjectsTool,
  queryHybridTool,
  storeChunksTool,
} from '@lectern/contracts';
import { bindTool, TOOL_DEADLINE_MAX_MS, withDeadlines, type ToolRegistration } from '@lectern/transport';
import type { DocumentStoreDeps } from '../deps.js';
import { findChunks, inspectProject, listProjects, queryHybrid } from '../project-chunks.js';
import { storeChunksAudited } from '../store-chunks-audit.js';

/**
 * Spec 004's five project tools, each bounded by the per-tool deadline (FR-011: TIMEOUT after 8-15 s); `store_chunks`
 * writes its FR-013 audit record.
 */
export const projectTools = (deps: DocumentStoreDeps): ToolRegistration[] =>
  withDeadlines(
    [
      bindTool(storeChunksTool, (input, ctx) => storeChunksAudited(deps, input, { signal: ctx.signal })),
      bindTool(findChunksTool, (input) => findChunks(deps, input)),
      bindTool(queryHybridTool, (input) => queryHybrid(deps, input)),
      bindTool(inspectCollectionTool, (input) => inspectProject(deps, input)),
      bindTool(listProjectsTool, () => listProjects(deps)),
    ],
    deps.toolDeadlineMs ?? TOOL_DEADLINE_MAX_MS,
  );
