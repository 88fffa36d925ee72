export * from './sqlite-task-store.js';
export * from './task-uploads.js';
export { newTaskId } from './task-id.js';
