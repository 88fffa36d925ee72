export { corporaDir, corpusFile, repoRoot, sharedDir, sharedModelDir, smallReportPdf } from './paths.js';
export { startRedis } from './redis-server.js';
export type { TestRedis } from './redis-server.js';
export { connectMcp, toolText, MCP_TRANSPORTS } from './mcp-client.js';
export type { McpTransportKind } from './mcp-client.js';
export { expectAuthMatrix, runRestAuthMatrix, mcpAuthProbes, runAuthMatrix, unauthorizedBody } from './auth-matrix.js';
export type { AuthProbe, AuthProbeResult } from './auth-matrix.js';
export { silentLogger, listenOnFreePort } from './app-harness.js';
export { wordRecall, words } from './word-recall.js';
