// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  CalendarDaySchema,
  findChunksTool,
  getDocumentTextTool,
  getPolicySectionTool,
  ListIngestedDocumentsInput,
  listIngestedDocumentsTool,
  listPolicyDocumentsTool,
  ProjectIdSchema,
  queryHybridTool,
  searchApplicationDocsTool,
  searchPolicyTool,
} from '@lectern/contracts';
import { definePrompt, toolCall, type McpCompletions, type McpPrompt } from '@lectern/transport';
import { z } from 'zod';
import type { StoreDeps } from './deps.js';
import { listProjectRecords } from './projects.js';
import { VectorStoreDocumentRegistry } from './registry.js';

const userText = (text: string) => ({ role: 'user' as const, content: { type: 'text' as const, text } });

/**
 * Review a planning application against the policies in force on its validation date (issue 30). The application's
 * documents are this server's; the policies are policy-kb-mcp's (`search_policy`, `get_policy_section`), which the
 * platform serves beside it.
 */
export const reviewApplicationPrompt = definePrompt({
  name: 'review_application',
  title: 'Review an application against the policies in force',
  description:
    'Review a planning application against the policies in force on its validation date, citing the application ' +
    "documents (this server) and the policy sections (policy-kb-mcp's tools) for every finding.",
  arguments: z.object({
    application_ref: ListIngestedDocumentsInput.shape.application_ref.describe(
      'Application reference, e.g. "25/01178/REM".',
    ),
    validation_date: CalendarDaySchema.describe('The date the application was validated (YYYY-MM-DD).'),
  }),
  render: ({ application_ref, validation_date }) => ({
    description: `Review of ${application_ref} against the policies in force on ${validation_date}`,
    messages: [
      userText(
        [
          `Review planning application ${application_ref} against the planning policies in force on its validation ` +
            `date, ${validation_date}.`,
          '',
          `1. List the application's documents: ${toolCall(listIngestedDocumentsTool, { application_ref })}.`,
          `2. Find what the application proposes (use, scale, design, access, parking, drainage, ecology): ` +
            `${toolCall(searchApplicationDocsTool, { query: true, application_ref })}; read a whole document ` +
            `where needed with ${toolCall(getDocumentTextTool, { document_id: true, offset: true })}.`,
          `3. Find the policies that apply, only as in force on ${validation_date}: ` +
            `${toolCall(listPolicyDocumentsTool, {})} for the sources, then ` +
            `${toolCall(searchPolicyTool, { query: true, sources: true, effective_date: validation_date })} for each topic.`,
          `4. Read each policy you rely on in full: ` +
            `${toolCall(getPolicySectionTool, { source: true, section_ref: true, revision_id: true })} with the ` +
            'revision_id the search returned (never a later revision).',
          '',
          'Answer with one finding per policy: complies, does not comply, or cannot tell from the documents. Cite ' +
            'every statement: the document (source_file, page numbers) and the policy (source, version_label, ' +
            'section_ref). Say plainly where the documents are silent.',
        ].join('\n'),
      ),
    ],
  }),
});

/** Answer a question from one project's documents, every claim cited (spec 004's tools). */
export const citeAndAnswerPrompt = definePrompt({
  name: 'cite_and_answer',
  title: 'Answer from a project, with citations',
  description:
    "Answer a question from one project's documents only, quoting and citing the chunks every claim rests on.",
  arguments: z.object({
    project: ProjectIdSchema.describe('The project to answer from.'),
    question: z.string().min(1).max(2000).describe('The question to answer.'),
  }),
  render: ({ project, question }) => ({
    description: `Cited answer from project ${project}`,
    messages: [
      userText(
        [
          `Answer this question from the documents of project "${project}" only:`,
          '',
          question,
          '',
          `1. Search the project: ${toolCall(queryHybridTool, { project, query: true, top_k: true })} ` +
            `(or ${toolCall(findChunksTool, { project, query: true })} for meaning alone), with two or three ` +
            'phrasings of the question.',
          '2. Use only what the returned chunks say. Quote the words you rely on.',
          "3. Cite each claim with the chunk's citation metadata (citekey or title, page span, section path).",
          '',
          'If the chunks do not answer the question, say so and name what is missing; never answer from ' +
            'general knowledge.',
        ].join('\n'),
      ),
    ],
  }),
});

export const documentStorePrompts: readonly McpPrompt[] = [reviewApplicationPrompt, citeAndAnswerPrompt];

/**
 * Completions from the real stores: application refs and document ids of the default project's registry, and
 * project ids from the project records. Each read is one registry scan (the listing `resources/list` does).
 */
export const documentStoreCompletions = (deps: StoreDeps): McpCompletions => {
  const entries = () => new VectorStoreDocumentRegistry(deps.store, deps.defaultProject).listAll();
  return {
    application_ref: async () => (await entries()).map((e) => e.application_ref),
    document_id: async () => (await entries()).map((e) => e.document_id),
    project: async () => (await listProjectRecords(deps.store)).map((r) => r.project),
  };
};
