// SPDX-License-Identifier: AGPL-3.0-or-later
export * from './job.schema.js';
export * from './conversion.queue.js';
export * from './conversion-task.schema.js';
export * from './policy-ingest.queue.js';
export * from './extraction-task.queue.js';
export * from './catalog.js';
