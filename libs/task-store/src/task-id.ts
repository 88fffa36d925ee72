// SPDX-License-Identifier: AGPL-3.0-or-later
import { monotonicFactory } from 'ulid';

const next = monotonicFactory();

/**
 * A new task id: a ULID, monotonic within this process, so ids made in the same millisecond still sort in the
 * order the tasks were created (the store lists newest first by id; plain `ulid()` randomises within a millisecond).
 * One API replica owns the task store, so one process makes every id.
 */
export const newTaskId = (): string => next();
