// SPDX-License-Identifier: AGPL-3.0-or-later
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

/**
 * Validates HTTP requests (method, path, query parameters, JSON body) and JSON replies against an
 * OpenAPI 3.0 document, with Ajv (draft-07 JSON Schema) compiling the document's own component schemas.
 *
 * Hand-written part, and why: OpenAPI 3.0 schemas are not quite JSON Schema. Qdrant's document writes optional
 * fields as `anyOf: [{$ref: X}, {nullable: true}]`; Ajv rejects `nullable` without `type`, and dropping it
 * would turn that branch into `{}` (accept anything), silently disabling validation of every optional field.
 * `toJsonSchema` maps `nullable` to an explicit `null` type instead, and drops `example`.
 */
const toJsonSchema = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (node === null || typeof node !== 'object') return node;
  const { nullable, example: _example, ...rest } = node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest)) {
    // `properties` and `components.schemas` are maps of names, not schemas: convert their values only.
    out[k] = k === 'properties' || k === 'schemas' || k === 'definitions' ? mapValues(v) : toJsonSchema(v);
  }
  if (nullable !== true) return out;
  const keys = Object.keys(out).filter((k) => k !== 'description' && k !== 'default');
  if (keys.length === 0) return { type: 'null' };
  if (typeof out['type'] === 'string') {
    const enumValues = out['enum'];
    return {
      ...out,
      type: [out['type'], 'null'],
      ...(Array.isArray(enumValues) ? { enum: [...enumValues, null] } : {}),
    };
  }
  return { anyOf: [out, { type: 'null' }] };
};
const mapValues = (v: unknown): unknown =>
  v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, s]) => [k, toJsonSchema(s)]))
    : v;

interface Operation {
  parameters?: { name: string; in: string; required?: boolean; schema?: unknown }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  operationId?: string;
}

export interface RequestCheck {
  /** The operation's path template, e.g. `/collections/{collection_name}/points/query`. */
  template: string | null;
  operationId: string | null;
  errors: string[];
}

const DOC_ID = 'openapi.json';

export class OpenApiValidator {
  private readonly ajv: Ajv;
  private readonly paramsAjv: Ajv;
  private readonly doc: { paths: Record<string, Record<string, Operation>> };
  private readonly routes: { template: string; re: RegExp; params: number }[];
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(file: string) {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as {
      paths: Record<string, Record<string, Operation>>;
      components: unknown;
    };
    this.doc = raw;
    const addFormats = addFormatsModule as unknown as (a: Ajv) => Ajv;
    const make = (coerce: boolean): Ajv => {
      const a = new Ajv({ strict: false, allErrors: true, coerceTypes: coerce ? 'array' : false });
      addFormats(a);
      const uint = { type: 'number' as const, validate: (x: number) => Number.isInteger(x) && x >= 0 };
      for (const f of ['uint', 'uint8', 'uint16', 'uint32', 'uint64']) a.addFormat(f, uint);
      for (const f of ['int32', 'int64'])
        a.addFormat(f, { type: 'number', validate: (x: number) => Number.isInteger(x) });
      for (const f of ['float', 'double'])
        a.addFormat(f, { type: 'number', validate: (x: number) => Number.isFinite(x) });
      a.addSchema({ $id: DOC_ID, components: toJsonSchema(raw.components) });
      return a;
    };
    this.ajv = make(false);
    this.paramsAjv = make(true);
    this.routes = Object.keys(raw.paths)
      .map((template) => ({
        template,
        re: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
        params: (template.match(/\{/g) ?? []).length,
      }))
      .sort((a, b) => a.params - b.params); // literal segments win: /collections/aliases before /collections/{name}
  }

  private validator(a: Ajv, key: string, schema: unknown): ValidateFunction {
    let v = this.cache.get(key);
    if (!v) {
      const s = toJsonSchema(schema) as Record<string, unknown>;
      v = a.compile(rewriteRefs(s));
      this.cache.set(key, v);
    }
    return v;
  }

  private operation(method: string, path: string): { template: string; op: Operation } | null {
    const route = this.routes.find((r) => r.re.test(path));
    const op = route ? this.doc.paths[route.template]?.[method.toLowerCase()] : undefined;
    return route && op ? { template: route.template, op } : null;
  }

  checkRequest(method: string, url: URL, body: unknown): RequestCheck {
    const found = this.operation(method, url.pathname);
    if (!found)
      return {
        template: null,
        operationId: null,
        errors: [`${method} ${url.pathname}: no such operation in the schema`],
      };
    const { template, op } = found;
    const errors: string[] = [];
    const params = (op.parameters ?? []).filter((p) => p.in === 'query');
    for (const [name, value] of url.searchParams) {
      const p = params.find((x) => x.name === name);
      if (!p) {
        errors.push(`query parameter "${name}" is not defined for ${method} ${template}`);
        continue;
      }
      const v = this.validator(this.paramsAjv, `q:${method}:${template}:${name}`, p.schema ?? {});
      const holder = { value };
      if (
        !this.validator(this.paramsAjv, `qw:${method}:${template}:${name}`, {
          type: 'object',
          properties: { value: p.schema ?? {} },
        })(holder) ||
        !v(holder.value)
      ) {
        errors.push(`query parameter "${name}=${value}" does not match its schema`);
      }
    }
    for (const p of params)
      if (p.required && !url.searchParams.has(p.name)) errors.push(`query parameter "${p.name}" is required`);
    const schema = op.requestBody?.content?.['application/json']?.schema;
    if (schema !== undefined) {
      const v = this.validator(this.ajv, `b:${method}:${template}`, schema);
      if (!v(body))
        errors.push(
          ...(v.errors ?? []).map((e) => `body${e.instancePath} ${e.message ?? ''} ${JSON.stringify(e.params)}`),
        );
    } else if (body !== undefined) {
      errors.push(`${method} ${template} takes no body`);
    }
    return { template, operationId: op.operationId ?? null, errors };
  }

  checkResponse(method: string, url: URL, status: number, body: unknown): string[] {
    const found = this.operation(method, url.pathname);
    const schema = found?.op.responses?.[String(status)]?.content?.['application/json']?.schema;
    if (!found || schema === undefined)
      return status === 200 ? [`no 200 response schema for ${method} ${url.pathname}`] : [];
    const v = this.validator(this.ajv, `r:${method}:${found.template}:${status}`, schema);
    return v(body) ? [] : (v.errors ?? []).map((e) => `reply${e.instancePath} ${e.message ?? ''}`);
  }
}

/** `#/components/...` inside the document becomes `openapi.json#/components/...` in standalone schemas. */
const rewriteRefs = (node: Record<string, unknown>): Record<string, unknown> => {
  const walk = (n: unknown): unknown => {
    if (Array.isArray(n)) return n.map(walk);
    if (n === null || typeof n !== 'object') return n;
    return Object.fromEntries(
      Object.entries(n as Record<string, unknown>).map(([k, v]) => [
        k,
        k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? DOC_ID + v : walk(v),
      ]),
    );
  };
  return walk(node) as Record<string, unknown>;
};
