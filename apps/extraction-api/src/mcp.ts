// SPDX-License-Identifier: AGPL-3.0-or-later
import { docToolsMcpService, type DocTools } from '@lectern/doc-tools';
import { mcpTimeouts } from '@lectern/platform';
import type { LocalMcpServer } from '@lectern/extraction';
import type { TaskStore } from '@lectern/task-store';
import { mountMcp } from '@lectern/transport';
import { checkExtractionPrompt, taskCompletions, taskResources } from './task-resources.js';
import type { FastifyInstance } from 'fastify';
import type { ExtractionConfig } from './config.js';

/**
 * Spec 003's `mcp-tools` role served by this service: the four document tools at `/mcp` (Streamable HTTP) and
 * `/sse`, behind the app's bearer auth and the MCP Host/Origin guard, for outside agents. Returns the server
 * factory of those endpoints: this service's own extractors reach the same server in-process through it (unless
 * `MCP_TOOLS_URL` names another server), never over HTTP. With the task store, the tasks are MCP resources
 * (`lectern://tasks/{task_id}`), with the `check_extraction` prompt and `task_id` completions (issue 30).
 */
export const mountDocTools = (
  app: FastifyInstance,
  config: ExtractionConfig,
  tools: DocTools | undefined,
  tasks?: TaskStore,
): (() => LocalMcpServer) => {
  const service = docToolsMcpService(tools, mcpTimeouts(config, config.DOC_INDEX_TIMEOUT_S));
  const resources = tasks ? taskResources(tasks) : undefined;
  return mountMcp(app, {
    ...service,
    sessionMode: config.MCP_HTTP_SESSIONS,
    ...(tasks && resources
      ? { resources, prompts: [checkExtractionPrompt(resources)], completions: taskCompletions(tasks) }
      : {}),
  });
};
