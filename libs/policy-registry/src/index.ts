// SPDX-License-Identifier: AGPL-3.0-or-later
export type { CreatedRevision, DeleteRevisionOptions, PolicyRegistry } from './policy-registry.port.js';
export { RedisPolicyRegistry, createRedisPolicyRegistry } from './redis/redis.adapter.js';
export type { RedisPolicyRegistryOptions } from './redis/redis.adapter.js';
export { SqlitePolicyRegistry, createSqlitePolicyRegistry } from './sqlite/sqlite.adapter.js';
export type { SqlitePolicyRegistryOptions } from './sqlite/sqlite.adapter.js';
export { EffectiveDateResolver } from './effective-date-resolver.js';
export type { EffectivePolicyResult, EffectiveSnapshotResult, NoRevisionReason } from './effective-date-resolver.js';
export { addDays, dateInt, dayFromNumber, dayNumber, parseDay } from './dates.js';
export { COUNTING_STATUSES, checkDelete, isTakenOver, settledStatus } from './revision-rules.js';
