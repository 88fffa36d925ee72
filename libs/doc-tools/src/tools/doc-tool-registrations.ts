// SPDX-License-Identifier: AGPL-3.0-or-later
import { docIndexBuildTool, docReadTool, docSearchTool, jsonValidateAndNormalizeTool } from '@lectern/contracts';
import { bindTool, type ToolRegistration } from '@lectern/transport';
import type { DocTools } from '../doc-tools.js';

/** Spec 003's four tools: parse (done by the transport), call the use case, return. */
export const docToolRegistrations = (tools: DocTools): ToolRegistration[] => [
  bindTool(docIndexBuildTool, (input, ctx) =>
    tools.indexBuild(input, { progress: (...p) => ctx.progress(...p), signal: ctx.signal }),
  ),
  bindTool(docSearchTool, (input) => tools.search(input)),
  bindTool(docReadTool, (input) => tools.read(input)),
  bindTool(jsonValidateAndNormalizeTool, async (input) => tools.validateAndNormalize(input)),
];
