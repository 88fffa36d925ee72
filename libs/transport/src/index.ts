// SPDX-License-Identifier: AGPL-3.0-or-later
export { createHttpApp } from './http-app.js';
export type { HttpAppOptions } from './http-app.js';
export { mountMcp } from './mcp-app.js';
export type { MountMcpOptions } from './mcp-app.js';
export { createMcpServerFactory, describeTools } from './mcp-server-factory.js';
export { ServiceMetrics } from './metrics.js';
export { runTool, notImplemented, errorResult, describeZodError } from './run-tool.js';
export { bindTool } from './tool-registration.js';
export {
  DEFAULT_TOOL_DEADLINE_MS,
  TIMEOUT_META_KEY,
  TOOL_DEADLINE_MAX_MS,
  TOOL_DEADLINE_MIN_MS,
  callDeadlineMs,
  runWithDeadline,
  toolDeadlineMs,
  withDeadlines,
} from './tool-deadline.js';
export type { ToolDeadlines, RegistrationDeadline } from './tool-deadline.js';
export { InflightWork, shuttingDownError } from './inflight.js';
export type { InflightTicket } from './inflight.js';
export { clientClosedError, requestSignal } from './request-signal.js';
export type { RequestSignalOptions } from './request-signal.js';
export type { ToolContext, ToolHandler, ToolRegistration } from './tool-registration.js';
export { installShutdown } from './shutdown.js';
export type { ShutdownStep, ShutdownOptions } from './shutdown.js';
export type { McpSessionMode } from './streamable-http.route.js';
export { hijackWithHeaders } from './raw-reply.js';
export { closeHttp, httpShutdownStep } from './close-http.js';
export { createAdmission } from './admission.js';
export type { Admission, AdmissionOptions } from './admission.js';
export { createOriginGuard } from './origin-guard.js';
export type { OriginPolicy } from './origin-guard.js';
export { MCP_PATHS } from './mcp-app.js';
export { serveStdio } from './stdio.js';
export type { ServeStdioOptions } from './stdio.js';
export { announceReady, isLoopbackHost } from './ready.js';
export type { ReadyFacts } from './ready.js';
export { errorResponse, jsonSchemaOf, multipartBody, multipartBodyOf, OPENAPI_PATHS } from './openapi.js';
export { readMultipartUpload, receiveUpload } from './multipart-upload.js';
export type { MultipartUploadHandlers, ReceivedUpload } from './multipart-upload.js';
export { checkDependencies, registerProbes, DEPENDENCY_CHECK_TIMEOUT_MS, PROBE_PATHS } from './health.js';
export type { DependencyCheck, DependencyStatus } from './health.js';
export { RESOURCE_TEXT_MAX_CHARS, matchResourceUri, textResource, truncationMarker } from './mcp-resources.js';
export type { McpResourceProvider, ResourcePage } from './mcp-resources.js';
export {
  COMPLETION_MAX_VALUES,
  PROMPT_ARGUMENT_MAX_CHARS,
  completionOf,
  definePrompt,
  describePrompts,
  templateVariables,
  toolCall,
} from './mcp-prompts.js';
export type { McpCompleter, McpCompletions, McpPrompt, PromptArgumentSchema } from './mcp-prompts.js';
export { QUEUE_ADMIN_PREFIX, registerQueueAdminRoutes } from './queue-admin.route.js';
export type { AdminQueue, QueueAdminRoutesOptions } from './queue-admin.route.js';
