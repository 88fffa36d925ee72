// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  AppError,
  docIndexBuildTool,
  docReadTool,
  docSearchTool,
  ExtractionTaskStatusSchema,
  type ExtractionTaskStatus,
} from '@lectern/contracts';
import type { TaskRecord, TaskStore } from '@lectern/task-store';
import {
  definePrompt,
  matchResourceUri,
  RESOURCE_TEXT_MAX_CHARS,
  toolCall,
  type McpCompletions,
  type McpPrompt,
  type McpResourceProvider,
} from '@lectern/transport';
import { z } from 'zod';

export const TASK_URI_TEMPLATE = 'lectern://tasks/{task_id}';
/** Tasks per `resources/list` page. */
export const TASK_RESOURCES_PAGE = 100;
/** Task ids are ULIDs (spec 003's task API; the `extraction-task` queue's pattern). */
const TaskIdSchema = z.string().regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'task ids are ULIDs');
/** The newest tasks a `task_id` completion looks through (a completion is a hint, not a search). */
const COMPLETION_SCAN = 1000;

export const taskUri = (taskId: string): string => `lectern://tasks/${taskId}`;

/** `GET /tasks/{id}`'s body (the same fields, parsed through its schema). */
const taskStatus = (task: TaskRecord): ExtractionTaskStatus => ExtractionTaskStatusSchema.parse(task);

const invalid = (message: string) => new AppError('invalid_arguments', message);

/**
 * Extraction tasks as MCP resources (issue 30): `lectern://tasks/{task_id}`, listed newest first 100 at a time (the
 * task store's own cursor), read as the task's status (application/json, `GET /tasks/{id}`'s body) and, once it
 * succeeded, its result (application/json: data, evidence, warnings, timing — `GET /tasks/{id}/result`'s body).
 * A result over `RESOURCE_TEXT_MAX_CHARS` characters is not cut (cut JSON is no JSON): the status says
 * `result_omitted` and where to fetch it.
 */
export const taskResources = (
  store: TaskStore,
  options: { pageSize?: number; maxChars?: number } = {},
): McpResourceProvider => ({
  templates: [
    {
      uriTemplate: TASK_URI_TEMPLATE,
      name: 'extraction_task',
      title: 'Extraction task',
      description:
        "An extraction task: its status (application/json) and, once it succeeded, its result with each field's " +
        'evidence (application/json).',
      mimeType: 'application/json',
    },
  ],
  list: async (cursor) => {
    if (cursor !== undefined && !TaskIdSchema.safeParse(cursor).success)
      throw invalid('cursor is not one this listing returned (pass nextCursor unchanged)');
    const page = await store.list({ limit: options.pageSize ?? TASK_RESOURCES_PAGE, cursor });
    return {
      resources: page.tasks.map((t) => ({
        uri: taskUri(t.task_id),
        name: t.task_id,
        title: t.original_filename,
        description: `${t.status}, created ${t.created_at}, ${t.extractor} extractor`,
        mimeType: 'application/json',
      })),
      nextCursor: page.next_cursor,
    };
  },
  read: async (uri) => {
    const { vars } = matchResourceUri([TASK_URI_TEMPLATE], uri);
    const id = TaskIdSchema.safeParse(vars['task_id']);
    if (!id.success) throw invalid(`Not a task URI: ${uri.slice(0, 200)}`);
    const task = await store.get(id.data);
    if (!task) throw new AppError('task_not_found', `Task not found: ${id.data}`, { httpStatus: 404 });
    const result = task.status === 'succeeded' && task.result ? JSON.stringify(task.result) : undefined;
    const omitted = result !== undefined && result.length > (options.maxChars ?? RESOURCE_TEXT_MAX_CHARS);
    const status = {
      ...taskStatus(task),
      ...(omitted
        ? { result_omitted: `the result is ${result.length} characters; fetch GET /tasks/${task.task_id}/result` }
        : {}),
    };
    return [
      { uri: `${uri}#status`, mimeType: 'application/json', text: JSON.stringify(status) },
      ...(result !== undefined && !omitted ? [{ uri, mimeType: 'application/json', text: result }] : []),
    ];
  },
});

/**
 * Check an extraction's result against its evidence (issue 30): the task resource is attached, and the message
 * names the doc tools this server serves for reading the document again.
 */
export const checkExtractionPrompt = (resources: McpResourceProvider): McpPrompt =>
  definePrompt({
    name: 'check_extraction',
    title: "Check an extraction's evidence",
    description:
      "Check each field of a finished extraction task against its evidence (the task's result is attached), " +
      'and re-read doubtful values in the document with the doc tools.',
    arguments: z.object({ task_id: TaskIdSchema.describe('The extraction task (a ULID from POST /tasks).') }),
    render: async ({ task_id }, signal) => {
      const contents = await resources.read(taskUri(task_id), signal);
      return {
        description: `Evidence check of extraction task ${task_id}`,
        messages: [
          ...contents.map((resource) => ({ role: 'user' as const, content: { type: 'resource' as const, resource } })),
          {
            role: 'user',
            content: {
              type: 'text',
              text: [
                `Check the extraction task ${task_id} attached above, field by field.`,
                '',
                '1. For each value in `data`, read its `evidence` leaf: is there a snippet, does it contain the value, ' +
                  'is it `grounded`, on which page?',
                '2. For a value without grounded evidence, read the document again: ' +
                  `${toolCall(docIndexBuildTool, { file_path: true })} (the document inside the server's roots), ` +
                  `then ${toolCall(docSearchTool, { index_id: true, query: true })} for the field and ` +
                  `${toolCall(docReadTool, { index_id: true, locator: true })} at the evidence's locator.`,
                '',
                'Answer with a table: field, value, evidence (page, snippet), verdict (confirmed, wrong, not in the ' +
                  'document), and the corrected value where you found one.',
              ].join('\n'),
            },
          },
        ],
      };
    },
  });

/** `task_id` completion: the newest tasks' ids starting with what was typed. */
export const taskCompletions = (store: TaskStore): McpCompletions => ({
  task_id: async (prefix) => {
    const ids: string[] = [];
    let cursor: string | undefined;
    let scanned = 0;
    do {
      const page = await store.list({ limit: 200, cursor });
      scanned += page.tasks.length;
      ids.push(...page.tasks.map((t) => t.task_id).filter((id) => id.startsWith(prefix.toUpperCase())));
      cursor = page.next_cursor;
    } while (cursor && ids.length <= 100 && scanned < COMPLETION_SCAN);
    return ids;
  },
});
