// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  AppError,
  CreatePolicyInputSchema,
  CreateRevisionInputSchema,
  PolicyRegistryErrorCodes as Codes,
  PolicyRevisionSchema,
  PolicySchema,
  RevisionIdSchema,
  RevisionPatchSchema,
  SourceSlugSchema,
} from '@lectern/contracts';
import { backoffDelay, retry, type Logger } from '@lectern/runtime';
import { Redis, type ChainableCommander } from 'ioredis';
import { dayNumber, parseDay } from '../dates.js';
import type {
  CreatedRevision,
  CreatePolicyInput,
  CreateRevisionInput,
  DeleteRevisionOptions,
  Policy,
  PolicyRegistry,
  PolicyRevision,
  RevisionPatch,
} from '../policy-registry.port.js';
import { parseInput, policyNotFound, registryUnavailable, revisionNotFound } from '../registry-errors.js';
import { applyPatch, checkDelete, newestFirst, pickEffective, planRevision } from '../revision-rules.js';
import { fromHash, hashFields, registryKeys, toHash, type RegistryKeys } from './redis-keys.js';

export interface RedisPolicyRegistryOptions {
  url: string;
  /** Prepended to every key (default none: the spec's keys exactly). */
  keyPrefix?: string | undefined;
  /** Bound on connecting and on every command: past it the call fails with `registry_unavailable` (default 2 s). */
  timeoutMs?: number | undefined;
  log?: Logger | undefined;
}

const POLICY_FIELDS = hashFields(PolicySchema.shape);
const REVISION_FIELDS = hashFields(PolicyRevisionSchema.shape);
/** WATCH conflicts retried before giving up (another writer kept changing the same policy). */
const MAX_ATTEMPTS = 10;

type Step<T> = { result: T; multi?: ChainableCommander };

/** Between WATCH conflicts, a short jittered wait: two writers that collided do not collide again in lockstep. */
const WATCH_RETRY = { attempts: MAX_ATTEMPTS, baseDelayMs: 2, maxDelayMs: 50, jitter: 0.5 } as const;
/** Reconnection waits while Redis is down: 100 ms doubling to 1 s (ioredis asks for one per failed try). */
const RECONNECT_BACKOFF = { attempts: Number.POSITIVE_INFINITY, baseDelayMs: 100, maxDelayMs: 1_000 } as const;

/** EXEC found a watched key changed: plan again. */
class WatchConflict extends Error {}

/**
 * The Redis adapter, on spec 001's key schema: `policy:{source}` and `policy_revision:{source}:{revision_id}`
 * hashes, `policy_revisions:{source}` sorted by effective_from in days since the epoch, the `policies_all` set.
 *
 * Changes are optimistic transactions: WATCH the keys read, read, plan (the shared rules), MULTI/EXEC the
 * writes; EXEC fails if another writer touched a watched key, and the change is planned again. WATCH belongs to
 * a connection, so transactions have their own connection and run one at a time in this process; reads use
 * the other. Every command is bounded (`timeoutMs`) and fails fast while Redis is down; the client reconnects
 * in the background, so the registry recovers by itself when Redis returns.
 */
export class RedisPolicyRegistry implements PolicyRegistry {
  private readonly keys: RegistryKeys;
  private readonly reader: Redis;
  private readonly writer: Redis;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(options: RedisPolicyRegistryOptions) {
    this.keys = registryKeys(options.keyPrefix ?? '');
    const timeout = options.timeoutMs ?? 2_000;
    const connect = (name: string): Redis => {
      const client = new Redis(options.url, {
        connectionName: `lectern-policy-registry-${name}`,
        connectTimeout: timeout,
        commandTimeout: timeout,
        maxRetriesPerRequest: 1,
        retryStrategy: (times) => backoffDelay(times, RECONNECT_BACKOFF),
      });
      let down = false;
      client.on('error', (error: Error) => {
        if (!down) options.log?.warn({ err: error.message }, 'policy registry: Redis unreachable');
        down = true;
      });
      client.on('ready', () => {
        if (down) options.log?.info('policy registry: Redis reachable again');
        down = false;
      });
      return client;
    };
    this.reader = connect('read');
    this.writer = connect('write');
  }

  async createPolicy(input: CreatePolicyInput): Promise<Policy> {
    const p = parseInput(CreatePolicyInputSchema, input);
    const now = new Date().toISOString();
    const policy: Policy = {
      source: p.source,
      title: p.title,
      description: p.description ?? null,
      category: p.category,
      created_at: now,
      updated_at: now,
    };
    return this.transact(async (tx) => {
      await tx.watch(this.keys.policy(p.source));
      const exists =
        (await tx.exists(this.keys.policy(p.source))) === 1 || (await tx.sismember(this.keys.all(), p.source)) === 1;
      if (exists)
        throw new AppError(Codes.policyAlreadyExists, `Policy already exists: ${p.source}`, { httpStatus: 409 });
      const multi = tx.multi().hset(this.keys.policy(p.source), toHash(policy)).sadd(this.keys.all(), p.source);
      return { result: policy, multi };
    });
  }

  async getPolicy(source: string): Promise<Policy | null> {
    const s = parseInput(SourceSlugSchema, source);
    return this.run(() => this.readPolicy(this.reader, s));
  }

  async listPolicies(): Promise<Policy[]> {
    return this.run(async () => {
      const sources = (await this.reader.smembers(this.keys.all())).sort();
      const hashes = await this.hgetalls(
        this.reader,
        sources.map((s) => this.keys.policy(s)),
      );
      return hashes.filter((h) => Object.keys(h).length > 0).map((h) => PolicySchema.parse(fromHash(h, POLICY_FIELDS)));
    });
  }

  async createRevision(input: CreateRevisionInput): Promise<CreatedRevision> {
    const r = parseInput(CreateRevisionInputSchema, input);
    return this.transact(async (tx) => {
      await tx.watch(
        this.keys.policy(r.source),
        this.keys.revisions(r.source),
        this.keys.revision(r.source, r.revision_id),
      );
      if ((await tx.exists(this.keys.policy(r.source))) === 0) throw policyNotFound(r.source);
      const existing = await this.watchRevisions(tx, r.source);
      if (
        (await tx.exists(this.keys.revision(r.source, r.revision_id))) === 1 &&
        !existing.some((e) => e.revision_id === r.revision_id)
      ) {
        throw new AppError(
          Codes.revisionAlreadyExists,
          `Revision already exists: ${r.revision_id} for policy ${r.source}`,
          { httpStatus: 409 },
        );
      }
      const plan = planRevision(existing, r, new Date().toISOString());
      const multi = tx
        .multi()
        .hset(this.keys.revision(r.source, r.revision_id), toHash(plan.revision))
        .zadd(this.keys.revisions(r.source), dayNumber(plan.revision.effective_from), r.revision_id);
      if (plan.superseded) {
        const { revision_id, effective_to, status } = plan.superseded;
        multi.hset(this.keys.revision(r.source, revision_id), toHash({ effective_to, status }));
      }
      for (const { revision_id, status } of plan.settled)
        multi.hset(this.keys.revision(r.source, revision_id), toHash({ status }));
      return { result: { revision: plan.revision, superseded: plan.superseded }, multi };
    });
  }

  async getRevision(source: string, revisionId: string): Promise<PolicyRevision | null> {
    const [s, id] = [parseInput(SourceSlugSchema, source), parseInput(RevisionIdSchema, revisionId)];
    return this.run(async () => {
      const hash = await this.reader.hgetall(this.keys.revision(s, id));
      return Object.keys(hash).length > 0 ? PolicyRevisionSchema.parse(fromHash(hash, REVISION_FIELDS)) : null;
    });
  }

  async listRevisions(source: string): Promise<PolicyRevision[]> {
    const s = parseInput(SourceSlugSchema, source);
    return this.run(async () => {
      if ((await this.reader.exists(this.keys.policy(s))) === 0) throw policyNotFound(s);
      const ids = await this.reader.zrevrange(this.keys.revisions(s), 0, -1);
      return newestFirst(await this.readRevisions(this.reader, s, ids));
    });
  }

  async updateRevision(source: string, revisionId: string, patch: RevisionPatch): Promise<PolicyRevision> {
    const [s, id] = [parseInput(SourceSlugSchema, source), parseInput(RevisionIdSchema, revisionId)];
    const p = parseInput(RevisionPatchSchema, patch);
    return this.transact(async (tx) => {
      const key = this.keys.revision(s, id);
      // The whole policy is read (and watched): the status is settled against the other revisions.
      await tx.watch(this.keys.revisions(s), key);
      const all = await this.watchRevisions(tx, s);
      const current = all.find((r) => r.revision_id === id);
      if (!current) throw revisionNotFound(s, id);
      const next = applyPatch(current, p, all);
      return { result: next, multi: tx.multi().hset(key, toHash(next)) };
    });
  }

  async deleteRevision(
    source: string,
    revisionId: string,
    options: DeleteRevisionOptions = {},
  ): Promise<PolicyRevision> {
    const [s, id] = [parseInput(SourceSlugSchema, source), parseInput(RevisionIdSchema, revisionId)];
    return this.transact(async (tx) => {
      await tx.watch(this.keys.revisions(s), this.keys.revision(s, id));
      const all = await this.watchRevisions(tx, s);
      const target = all.find((r) => r.revision_id === id);
      if (!target) throw revisionNotFound(s, id);
      checkDelete(all, target, options.force === true);
      return { result: target, multi: tx.multi().del(this.keys.revision(s, id)).zrem(this.keys.revisions(s), id) };
    });
  }

  /** FR-007's lookup: ZREVRANGEBYSCORE with the date as the max score, then `effective_to` and status on each. */
  async getEffectiveRevision(source: string, date: string): Promise<PolicyRevision | null> {
    const s = parseInput(SourceSlugSchema, source);
    const day = parseDay(date);
    return this.run(async () => {
      const ids = await this.reader.zrevrangebyscore(this.keys.revisions(s), dayNumber(day), '-inf');
      return pickEffective(await this.readRevisions(this.reader, s, ids), day);
    });
  }

  async close(): Promise<void> {
    await Promise.all(
      [this.reader, this.writer].map(async (c) => {
        if (c.status === 'end') return;
        await c.quit().catch(() => c.disconnect());
      }),
    );
  }

  private async readPolicy(client: Redis, source: string): Promise<Policy | null> {
    const hash = await client.hgetall(this.keys.policy(source));
    return Object.keys(hash).length > 0 ? PolicySchema.parse(fromHash(hash, POLICY_FIELDS)) : null;
  }

  private async hgetalls(client: Redis, keys: string[]): Promise<Array<Record<string, string>>> {
    if (keys.length === 0) return [];
    const pipeline = client.pipeline();
    for (const k of keys) pipeline.hgetall(k);
    const replies = (await pipeline.exec()) ?? [];
    return replies.map(([error, value]) => {
      if (error) throw error;
      return value as Record<string, string>;
    });
  }

  private async readRevisions(client: Redis, source: string, ids: string[]): Promise<PolicyRevision[]> {
    const hashes = await this.hgetalls(
      client,
      ids.map((id) => this.keys.revision(source, id)),
    );
    return hashes
      .filter((h) => Object.keys(h).length > 0)
      .map((h) => PolicyRevisionSchema.parse(fromHash(h, REVISION_FIELDS)));
  }

  /** Every revision of a policy, each hash WATCHed before it is read. */
  private async watchRevisions(tx: Redis, source: string): Promise<PolicyRevision[]> {
    const ids = await tx.zrange(this.keys.revisions(source), 0, -1);
    if (ids.length > 0) await tx.watch(...ids.map((id) => this.keys.revision(source, id)));
    return this.readRevisions(tx, source, ids);
  }

  /** WATCH, read and plan in `body`; MULTI/EXEC its writes; plan again when a watched key changed meanwhile. */
  private transact<T>(body: (tx: Redis) => Promise<Step<T>>): Promise<T> {
    const once = async (): Promise<T> => {
      let step: Step<T>;
      try {
        step = await body(this.writer);
      } catch (e) {
        await this.writer.unwatch().catch(() => undefined);
        throw e;
      }
      if (!step.multi) {
        await this.writer.unwatch();
        return step.result;
      }
      const replies = await step.multi.exec();
      if (replies === null) throw new WatchConflict();
      for (const [error] of replies) if (error) throw error;
      return step.result;
    };
    const attempt = async (): Promise<T> => {
      try {
        return await retry(once, { ...WATCH_RETRY, retryable: (e) => e instanceof WatchConflict });
      } catch (e) {
        if (!(e instanceof WatchConflict)) throw e;
        throw new AppError(
          Codes.registryUnavailable,
          'The policy registry is busy (concurrent changes to one policy); try again.',
          { httpStatus: 503 },
        );
      }
    };
    const run = this.queue.then(() => this.run(attempt));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Rule and validation errors pass through; a failing Redis command means the registry is unavailable. */
  private async run<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof AppError) throw e;
      if (e instanceof Error && e.name === 'ZodError') throw e;
      throw registryUnavailable('Redis', e);
    }
  }
}

export const createRedisPolicyRegistry = (options: RedisPolicyRegistryOptions): PolicyRegistry =>
  new RedisPolicyRegistry(options);
