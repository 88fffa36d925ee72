// SPDX-License-Identifier: AGPL-3.0-or-later
export * from './task-store.port.js';
export * from './sqlite-task-store.js';
export * from './redis-task-store.js';
export * from './task-uploads.js';
export { newTaskId } from './task-id.js';
