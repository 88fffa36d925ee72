// SPDX-License-Identifier: AGPL-3.0-or-later
export { corporaDir, corpusFile, corpusTier, repoRoot, sharedDir, sharedModelDir, smallReportPdf } from './paths.js';
export { startRedis } from './redis-server.js';
export type { TestRedis } from './redis-server.js';
export { connectMcp, toolText, MCP_TRANSPORTS } from './mcp-client.js';
export type { McpTransportKind } from './mcp-client.js';
export { expectAuthMatrix, runRestAuthMatrix, mcpAuthProbes, runAuthMatrix, unauthorizedBody } from './auth-matrix.js';
export type { AuthProbe, AuthProbeResult } from './auth-matrix.js';
export { silentLogger, listenOnFreePort } from './app-harness.js';
export { wordPairRecall, wordRecall, words } from './word-recall.js';
export {
  barsImage,
  fixtureFile,
  fixturesDir,
  makeNumberedPdf,
  makePdf,
  makePolicyPdf,
  makeTextPdf,
  numberedPdfFile,
  pdfString,
  pdfTextAt,
} from './make-pdf.js';
export { seededRandom, seededUnit } from './seeded-random.js';
export type { PdfImage, PdfPageSpec, TextPdfOptions } from './make-pdf.js';
export {
  deepHtml,
  handmadePdf,
  honestZipBomb,
  hostileCorpus,
  hugeJpegHeader,
  hugePng,
  lyingDocx,
  zipArchive,
} from './hostile-files.js';
export type { HostileCase } from './hostile-files.js';
export { spawnService } from './spawn-service.js';
export { serviceArgs } from './service-args.js';
export { killScenario } from './kill-scenario.js';
export type { KillScenario } from './kill-scenario.js';
export { killAtLine } from './kill-at-line.js';
export type { SpawnedService } from './spawn-service.js';
export { openApiErrors } from './openapi.js';
export { appErrorCode } from './app-error-code.js';
export * from './fake-llm.js';
export * from './agent-script.js';
export { EVIL_ORIGIN, runCrossSite } from './cross-site.js';
export type { CrossSiteResult } from './cross-site.js';
export * from './business-docs.js';
export * from './fresh-docs.js';
export { freshVariant9Docs } from './fresh-docs-9.js';
export { freshVariant10Docs } from './fresh-docs-10.js';
export { freshVariant11Docs } from './fresh-docs-11.js';
export { freshVariant12Docs } from './fresh-docs-12.js';
export { freshVariant13Docs } from './fresh-docs-13.js';
export { freshVariant14Docs } from './fresh-docs-14.js';
export { freshVariant15Docs } from './fresh-docs-15.js';
export { freshVariant16Docs } from './fresh-docs-16.js';
export { freshVariant17Docs } from './fresh-docs-17.js';
export { freshVariant18Docs } from './fresh-docs-18.js';
export { freshVariant19Docs } from './fresh-docs-19.js';
export { freshVariant20Docs } from './fresh-docs-20.js';
export { freshVariant21Docs } from './fresh-docs-21.js';
export { promptToolCalls, runInspectorCli, unknownToolNames } from './mcp-prompt-checks.js';
export type { NamedToolCall } from './mcp-prompt-checks.js';
export {
  ALL_LECTERN_SCOPES,
  idpAuthorizationCode,
  idpClientCredentials,
  idpClientSecret,
  idpSigningKey,
  startOidcIdp,
} from './oidc-idp.js';
export type { TestIdp, TestIdpClient } from './oidc-idp.js';
export { corpusDocuments, datasheetsDir } from './extraction-bench/documents.js';
export type { BenchDocument } from './extraction-bench/documents.js';
export * as extractionScore from './extraction-bench/score.js';
export {
  TEST_MODEL_DIMENSION,
  TEST_MODEL_ID,
  testModelDir,
  testModelEnv,
  withTestModel,
  wordPieceTokenizerJson,
} from './test-model.js';
export type { TestModelEnv } from './test-model.js';
