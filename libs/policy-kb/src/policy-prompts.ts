// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  CalendarDaySchema,
  getPolicySectionTool,
  listPolicyRevisionsTool,
  RevisionIdSchema,
  searchPolicyTool,
  SourceSlugSchema,
} from '@lectern/contracts';
import { definePrompt, toolCall, type McpCompletions, type McpPrompt } from '@lectern/transport';
import { z } from 'zod';
import type { PolicyStoreDeps } from './deps.js';

/** What one policy said on a date about a topic, from the revision in force then (spec 001's temporal search). */
export const policyInForcePrompt = definePrompt({
  name: 'policy_in_force',
  title: 'What a policy said on a date',
  description:
    'Answer what one policy said about a topic as in force on a given date, from that revision only, citing its ' +
    'sections.',
  arguments: z.object({
    source: SourceSlugSchema.describe('Policy source slug, e.g. "NPPF".'),
    date: CalendarDaySchema.describe('The date the policy is read as in force on (YYYY-MM-DD).'),
    topic: z.string().min(1).max(2000).describe('The topic or question, e.g. "cycle parking standards".'),
  }),
  render: ({ source, date, topic }) => ({
    description: `${source} as in force on ${date}: ${topic.slice(0, 80)}`,
    messages: [
      {
        role: 'user',
        content: {
          type: 'text',
          text: [
            `What did ${source}, as in force on ${date}, say about: ${topic}`,
            '',
            `1. Check which revision was in force: ${toolCall(listPolicyRevisionsTool, { source })} ` +
              `(effective_from and effective_to bound it, both inclusive).`,
            `2. Search that revision only: ` +
              `${toolCall(searchPolicyTool, { query: true, sources: [source], effective_date: date })}.`,
            `3. Read each section you rely on in full: ` +
              `${toolCall(getPolicySectionTool, { source, section_ref: true, revision_id: true })}.`,
            '',
            'Answer from that revision only; cite source, version_label, section_ref and page for each statement. ' +
              'If a later revision changed the answer, you may say so, but keep it apart.',
          ].join('\n'),
        },
      },
    ],
  }),
});

export const policyKbPrompts: readonly McpPrompt[] = [policyInForcePrompt];

/**
 * Completions from the registry: policy source slugs, and revision ids (of the `source` the client already chose,
 * else of every policy).
 */
export const policyKbCompletions = (deps: Pick<PolicyStoreDeps, 'registry'>): McpCompletions => ({
  source: async () => (await deps.registry.listPolicies()).map((p) => p.source),
  revision_id: async (_prefix, context) => {
    const chosen = SourceSlugSchema.safeParse(context['source']);
    const sources = chosen.success ? [chosen.data] : (await deps.registry.listPolicies()).map((p) => p.source);
    const ids: string[] = [];
    for (const source of sources) {
      if (!(await deps.registry.getPolicy(source))) continue;
      for (const r of await deps.registry.listRevisions(source))
        if (RevisionIdSchema.safeParse(r.revision_id).success) ids.push(r.revision_id);
    }
    return ids;
  },
});
