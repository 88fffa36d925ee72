// SPDX-License-Identifier: AGPL-3.0-or-later
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OpenApiValidator } from './openapi-validator.js';
import { filterHolds, runQuery, type Payload, type SimPoint } from './qdrant-semantics.js';

type Json = Record<string, unknown>;

export interface CapturedRequest {
  method: string;
  path: string;
  template: string | null;
  operationId: string | null;
  body: unknown;
  errors: string[];
  replyErrors: string[];
  status: number;
}

interface SimCollection {
  config: Json;
  metadata: Json;
  indexes: Record<string, Json>;
  points: Map<string, SimPoint>;
}

class HttpFail extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A recorded-response HTTP server standing in for Qdrant 1.18 on loopback. Every request is checked against
 * Qdrant's published OpenAPI schema (method, path, query parameters, body) and captured; a request that
 * fails the check is answered 422 so the adapter's test fails too. Replies are computed from an in-memory
 * model of the collections (see qdrant-semantics.ts) and are themselves checked against the schema's
 * response types, so the adapter parses replies of the documented shape.
 */
export class QdrantSimulator {
  readonly requests: CapturedRequest[] = [];
  private readonly collections = new Map<string, SimCollection>();
  private readonly faults: ('reset' | number)[] = [];
  private server: Server | undefined;
  url = '';

  constructor(private readonly validator: OpenApiValidator) {}

  /** The next requests fail: a number is an HTTP status, 'reset' drops the connection. */
  failNext(...faults: ('reset' | number)[]): void {
    this.faults.push(...faults);
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((r) => this.server?.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((r) => this.server?.close(r));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://sim');
    const method = req.method ?? 'GET';
    const fault = this.faults.shift();
    if (fault === 'reset') {
      req.socket.destroy();
      return;
    }
    let body: unknown;
    const check = (() => {
      try {
        body = raw.length ? JSON.parse(raw) : undefined;
        return this.validator.checkRequest(method, url, body);
      } catch {
        return { template: null, operationId: null, errors: ['body is not JSON'] };
      }
    })();
    const captured: CapturedRequest = {
      method,
      path: url.pathname + url.search,
      ...check,
      body,
      replyErrors: [],
      status: 0,
    };
    this.requests.push(captured);
    const started = process.hrtime.bigint();
    let status = 200;
    let reply: Json;
    if (typeof fault === 'number') {
      status = fault;
      reply = { status: { error: 'Service Unavailable (simulated)' }, time: 0 };
    } else if (check.errors.length > 0) {
      status = 422;
      reply = { status: { error: `request does not match the OpenAPI schema: ${check.errors.join('; ')}` }, time: 0 };
    } else {
      try {
        const result = this.route(method, check.template ?? '', url, (body ?? {}) as Json);
        reply = { result, status: 'ok', time: Number(process.hrtime.bigint() - started) / 1e9 };
        if (check.template === '/') reply = result as Json;
      } catch (e) {
        status = e instanceof HttpFail ? e.status : 500;
        reply = { status: { error: (e as Error).message }, time: 0 };
      }
      if (status === 200) captured.replyErrors = this.validator.checkResponse(method, url, 200, reply);
    }
    captured.status = status;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(reply));
  }

  private coll(url: URL): [string, SimCollection] {
    const name = decodeURIComponent(url.pathname.split('/')[2] ?? '');
    const c = this.collections.get(name);
    if (!c) throw new HttpFail(404, `Not found: Collection \`${name}\` doesn't exist!`);
    return [name, c];
  }

  private route(method: string, template: string, url: URL, b: Json): unknown {
    const key = `${method} ${template}`;
    const name = decodeURIComponent(url.pathname.split('/')[2] ?? '');
    switch (key) {
      case 'GET /':
        return { title: 'qdrant - vector search engine', version: '1.18.0' };
      case 'GET /collections':
        return { collections: [...this.collections.keys()].map((n) => ({ name: n })) };
      case 'GET /collections/{collection_name}/exists':
        return { exists: this.collections.has(name) };
      case 'PUT /collections/{collection_name}':
        if (this.collections.has(name)) throw new HttpFail(409, `Wrong input: Collection \`${name}\` already exists!`);
        this.collections.set(name, {
          config: b,
          metadata: (b['metadata'] as Json) ?? {},
          indexes: {},
          points: new Map(),
        });
        return true;
      case 'PATCH /collections/{collection_name}': {
        const [, c] = this.coll(url);
        c.metadata = { ...c.metadata, ...((b['metadata'] as Json) ?? {}) };
        return true;
      }
      case 'DELETE /collections/{collection_name}':
        return this.collections.delete(name);
      case 'GET /collections/{collection_name}':
        return this.info(...this.coll(url));
      case 'PUT /collections/{collection_name}/index': {
        const [, c] = this.coll(url);
        const schema = b['field_schema'];
        c.indexes[b['field_name'] as string] =
          typeof schema === 'string' ? { data_type: schema } : { data_type: (schema as Json)['type'], params: schema };
        return { operation_id: 1, status: 'completed' };
      }
      case 'PUT /collections/{collection_name}/points': {
        const [, c] = this.coll(url);
        const dim = ((c.config['vectors'] as Json)['dense'] as Json)['size'];
        for (const p of b['points'] as Json[]) {
          const vector = (p['vector'] as Record<string, number[]>)['dense'] ?? [];
          if (vector.length !== dim)
            throw new HttpFail(
              400,
              `Wrong input: Vector dimension error: expected dim: ${String(dim)}, got ${vector.length}`,
            );
          c.points.set(String(p['id']), { id: String(p['id']), vector, payload: (p['payload'] as Payload) ?? {} });
        }
        return { operation_id: 2, status: 'completed' };
      }
      case 'POST /collections/{collection_name}/points/delete': {
        const [, c] = this.coll(url);
        const ids = b['points'] as string[] | undefined;
        for (const p of [...c.points.values()]) {
          if (ids ? ids.includes(p.id) : filterHolds(p, b['filter'] as Json)) c.points.delete(p.id);
        }
        return { operation_id: 3, status: 'completed' };
      }
      case 'POST /collections/{collection_name}/points/payload': {
        const [, c] = this.coll(url);
        const ids = b['points'] as string[] | undefined;
        for (const p of c.points.values()) {
          if (ids ? ids.includes(p.id) : filterHolds(p, b['filter'] as Json))
            p.payload = { ...p.payload, ...(b['payload'] as Payload) };
        }
        return { operation_id: 4, status: 'completed' };
      }
      case 'POST /collections/{collection_name}/points/count': {
        const [, c] = this.coll(url);
        return { count: [...c.points.values()].filter((p) => filterHolds(p, b['filter'] as Json)).length };
      }
      case 'POST /collections/{collection_name}/points/scroll':
        return this.scroll(this.coll(url)[1], b);
      case 'POST /collections/{collection_name}/points/query':
        return { points: this.query(this.coll(url)[1], b) };
      case 'POST /collections/{collection_name}/points/query/batch': {
        const [, c] = this.coll(url);
        return (b['searches'] as Json[]).map((s) => ({ points: this.query(c, s) }));
      }
      case 'POST /collections/{collection_name}/facet': {
        const [, c] = this.coll(url);
        const counts = new Map<string, number>();
        for (const p of c.points.values()) {
          const v = p.payload[b['key'] as string];
          for (const x of new Set(Array.isArray(v) ? v : v === undefined ? [] : [v]))
            counts.set(String(x), (counts.get(String(x)) ?? 0) + 1);
        }
        return { hits: [...counts].map(([value, count]) => ({ value, count })).slice(0, (b['limit'] as number) ?? 10) };
      }
      default:
        throw new HttpFail(501, `${key} is not simulated`);
    }
  }

  private info(_name: string, c: SimCollection): Json {
    const payload_schema = Object.fromEntries(
      Object.entries(c.indexes).map(([f, i]) => [
        f,
        { ...i, points: [...c.points.values()].filter((p) => p.payload[f] !== undefined).length },
      ]),
    );
    return {
      status: 'green',
      optimizer_status: 'ok',
      segments_count: 1,
      points_count: c.points.size,
      indexed_vectors_count: 0,
      config: {
        params: {
          vectors: c.config['vectors'],
          shard_number: 1,
          replication_factor: 1,
          write_consistency_factor: 1,
          on_disk_payload: true,
        },
        hnsw_config: { m: 16, ef_construct: 100, full_scan_threshold: 10000, max_indexing_threads: 0, on_disk: false },
        optimizer_config: {
          deleted_threshold: 0.2,
          vacuum_min_vector_number: 1000,
          default_segment_number: 0,
          max_segment_size: null,
          memmap_threshold: null,
          indexing_threshold: 10000,
          flush_interval_sec: 5,
          max_optimization_threads: null,
        },
        metadata: c.metadata,
      },
      payload_schema,
    };
  }

  private record(p: SimPoint, withPayload: unknown, withVector: unknown): Json {
    let payload: Payload | null = null;
    if (withPayload === true) payload = p.payload;
    else if (withPayload && typeof withPayload === 'object' && 'include' in withPayload) {
      const inc = ([] as string[]).concat((withPayload as { include: string | string[] }).include);
      payload = Object.fromEntries(Object.entries(p.payload).filter(([k]) => inc.includes(k)));
    }
    return { id: p.id, payload, ...(withVector ? { vector: { dense: p.vector } } : {}) };
  }

  private scroll(c: SimCollection, b: Json): Json {
    const limit = (b['limit'] as number | undefined) ?? 10;
    const pts = [...c.points.values()].filter((p) => filterHolds(p, b['filter'] as Json));
    const order = b['order_by'] as Json | string | undefined;
    if (order) {
      const key = typeof order === 'string' ? order : (order['key'] as string);
      if (!c.indexes[key]) throw new HttpFail(400, `Bad request: No range index for \`order_by\` key: \`${key}\``);
      const start = typeof order === 'string' ? undefined : (order['start_from'] as number | undefined);
      const withValue = pts
        .filter(
          (p) => typeof p.payload[key] === 'number' && (start === undefined || (p.payload[key] as number) >= start),
        )
        .sort((x, y) => (x.payload[key] as number) - (y.payload[key] as number) || (x.id < y.id ? -1 : 1));
      return {
        points: withValue.slice(0, limit).map((p) => this.record(p, b['with_payload'] ?? true, b['with_vector'])),
        next_page_offset: null,
      };
    }
    const sorted = pts.sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
    const from =
      b['offset'] === undefined || b['offset'] === null ? 0 : sorted.findIndex((p) => p.id >= String(b['offset']));
    const page = from < 0 ? [] : sorted.slice(from, from + limit + 1);
    return {
      points: page.slice(0, limit).map((p) => this.record(p, b['with_payload'] ?? true, b['with_vector'])),
      next_page_offset: page.length > limit ? (page[limit]?.id ?? null) : null,
    };
  }

  private query(c: SimCollection, b: Json): Json[] {
    return runQuery(b, [...c.points.values()]).map((s) => ({
      ...this.record(s.point, b['with_payload'] ?? false, b['with_vector']),
      score: s.score,
      version: 1,
    }));
  }
}
