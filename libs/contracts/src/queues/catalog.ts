// SPDX-License-Identifier: AGPL-3.0-or-later
import { conversionQueue } from './conversion.queue.js';
import { extractionTaskQueue } from './extraction-task.queue.js';
import { policyIngestQueue } from './policy-ingest.queue.js';
import type { QueueDefinition } from './job.schema.js';

/**
 * Every queue Lectern runs, by name: what `lectern queue failed|retry` looks through. A new queue is listed here
 * beside its definition file.
 */
export const QUEUE_CATALOG: readonly QueueDefinition[] = [conversionQueue, policyIngestQueue, extractionTaskQueue];

export const queueNames = (): string[] => QUEUE_CATALOG.map((q) => q.name);
