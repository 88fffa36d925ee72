// SPDX-License-Identifier: AGPL-3.0-or-later
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import {
  AppError,
  CommonErrorCodes,
  CreatePolicyInputSchema,
  PolicyDetailResponseSchema,
  PolicyListResponseSchema,
  PolicyRevisionSchema,
  PolicyRevisionUploadFieldsSchema,
  PolicySchema,
  RevisionAcceptedResponseSchema,
  RevisionDeletedResponseSchema,
  RevisionIdSchema,
  RevisionListResponseSchema,
  SourceSlugSchema,
  defaultRevisionId,
  type PolicyIngestJobPayload,
  type PolicyIngestJobResult,
} from '@lectern/contracts';
import { safeFilename } from '@lectern/conversion-job';
import {
  createPolicyRevision,
  deletePolicyRevision,
  PolicyUploads,
  policyUploadsDir,
  type PolicyKbDeps,
} from '@lectern/policy-kb';
import { parseDay } from '@lectern/policy-registry';
import type { JobQueue } from '@lectern/queue';
import {
  describeZodError,
  errorResponse,
  jsonSchemaOf,
  multipartBodyOf,
  receiveUpload,
  requestSignal,
} from '@lectern/transport';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';

export interface AdminApiDeps {
  policyKb: PolicyKbDeps;
  ingestQueue: JobQueue<PolicyIngestJobPayload, PolicyIngestJobResult>;
  dataDir: string;
  maxDocumentBytes: number;
}

const TAGS = ['policy admin'] as const;
const invalid = (message: string): AppError =>
  new AppError(CommonErrorCodes.invalidArguments, message, { httpStatus: 400 });
const parse = <S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> => {
  const r = schema.safeParse(value);
  if (!r.success) throw invalid(`Invalid ${what}: ${describeZodError(r.error)}`);
  return r.data;
};

const SourceParams = z.object({ source: SourceSlugSchema });
const RevisionParams = SourceParams.extend({ revision_id: RevisionIdSchema });
const params = (schema: z.ZodObject) => jsonSchemaOf(schema, 'input');
const common = {
  400: errorResponse('Invalid input (invalid_arguments, invalid_date)'),
  503: errorResponse('The registry is unavailable'),
};
/** The OpenAPI description of a read route: its path parameters, its 200 body, its 404 when it has one. */
const readRoute = (summary: string, path: z.ZodObject | null, ok: z.ZodType, notFound?: string) => ({
  schema: {
    tags: TAGS,
    summary,
    ...(path ? { params: params(path) } : {}),
    response: { 200: jsonSchemaOf(ok), ...(notFound ? { 404: errorResponse(notFound) } : {}), ...common },
  },
});

/**
 * The admin REST API under `/api` (same port and bearer token as MCP; OpenAPI at `/api/docs`): register policies,
 * upload revisions (stored under DATA_DIR, ingested by a `policy-ingest` job; the revision's status follows it),
 * read them, and delete a revision (its chunks first, then the entry).
 */
export const registerAdminRoutes = (app: FastifyInstance, deps: AdminApiDeps): void => {
  const { policyKb } = deps;
  const { registry } = policyKb;
  const uploads = policyKb.uploads ?? new PolicyUploads({ dataDir: deps.dataDir });
  const requirePolicy = async (source: string) => {
    const policy = await registry.getPolicy(source);
    if (!policy) throw new AppError('policy_not_found', `Policy not found: ${source}`, { httpStatus: 404 });
    return policy;
  };

  app.post(
    '/api/policies',
    {
      schema: {
        tags: TAGS,
        summary: 'Register a policy document',
        body: jsonSchemaOf(CreatePolicyInputSchema, 'input'),
        response: { 201: jsonSchemaOf(PolicySchema), 409: errorResponse('policy_already_exists'), ...common },
      },
    },
    async (request, reply: FastifyReply) => {
      const input = parse(CreatePolicyInputSchema, request.body, 'policy');
      return reply.code(201).send(PolicySchema.parse(await registry.createPolicy(input)));
    },
  );

  app.get('/api/policies', readRoute('List the registered policies', null, PolicyListResponseSchema), async () =>
    PolicyListResponseSchema.parse({ policies: await registry.listPolicies() }),
  );

  app.get(
    '/api/policies/:source',
    readRoute(
      'A policy with its revisions (newest effective_from first)',
      SourceParams,
      PolicyDetailResponseSchema,
      'policy_not_found',
    ),
    async (request) => {
      const { source } = parse(SourceParams, request.params, 'path');
      const policy = await requirePolicy(source);
      return PolicyDetailResponseSchema.parse({ ...policy, revisions: await registry.listRevisions(source) });
    },
  );

  app.post(
    '/api/policies/:source/revisions',
    {
      schema: {
        tags: TAGS,
        summary: 'Upload a revision: registered as processing, then ingested by a policy-ingest job',
        consumes: ['multipart/form-data'],
        params: params(SourceParams),
        body: multipartBodyOf(PolicyRevisionUploadFieldsSchema),
        response: {
          202: {
            description: 'The revision (processing) and its ingest job',
            ...jsonSchemaOf(RevisionAcceptedResponseSchema),
          },
          404: errorResponse('policy_not_found'),
          409: errorResponse('revision_overlap or revision_already_exists: nothing was stored'),
          413: errorResponse('The file is larger than MAX_DOCUMENT_BYTES; nothing was stored'),
          415: errorResponse('Not multipart/form-data'),
          ...common,
        },
      },
    },
    async (request, reply: FastifyReply) => {
      // Aborted when the client hangs up or the service shuts down: an upload whose client left registers nothing.
      const signal = requestSignal(request, reply);
      const { source } = parse(SourceParams, request.params, 'path');
      await requirePolicy(source);
      const upload = await receiveUpload(request, {
        uploadsDir: join(policyUploadsDir(deps.dataDir), source),
        maxBytes: deps.maxDocumentBytes,
        safeName: safeFilename,
      });
      let revisionId: string;
      try {
        // distributed: into the blob store as well, for whichever replica runs the job (or recovers it)
        await uploads.keep(upload.path);
        const fields = parse(PolicyRevisionUploadFieldsSchema, upload.fields, 'fields');
        const from = parseDay(fields.effective_from, 'effective_from');
        const to = fields.effective_to === undefined ? null : parseDay(fields.effective_to, 'effective_to');
        revisionId = fields.revision_id ?? defaultRevisionId(source, from);
        const { size } = await stat(upload.path);
        signal.throwIfAborted();
        await createPolicyRevision(policyKb, {
          source,
          revision_id: revisionId,
          version_label: fields.version_label,
          effective_from: from,
          effective_to: to,
          notes: fields.notes ?? null,
          file_path: upload.path,
          file_size_bytes: size,
        });
      } catch (error) {
        await upload.discard();
        await uploads.remove(upload.path).catch(() => undefined);
        throw error;
      }
      const jobId = `policy-ingest-${randomUUID()}`;
      try {
        await deps.ingestQueue.add(
          {
            version: 1,
            source,
            revision_id: revisionId,
            file: { kind: 'data_dir', path: relative(deps.dataDir, upload.path) },
            reindex: false,
          },
          { jobId },
        );
      } catch (error) {
        await registry
          .updateRevision(source, revisionId, { status: 'failed', error: 'the ingest job could not be queued' })
          .catch(() => undefined);
        throw error;
      }
      const revision = await registry.getRevision(source, revisionId);
      return reply.code(202).send(RevisionAcceptedResponseSchema.parse({ revision, job_id: jobId }));
    },
  );

  app.get(
    '/api/policies/:source/revisions',
    readRoute(
      "A policy's revisions, newest effective_from first",
      SourceParams,
      RevisionListResponseSchema,
      'policy_not_found',
    ),
    async (request) => {
      const { source } = parse(SourceParams, request.params, 'path');
      return RevisionListResponseSchema.parse({ source, revisions: await registry.listRevisions(source) });
    },
  );

  app.get(
    '/api/policies/:source/revisions/:revision_id',
    readRoute(
      'One revision (its status follows its ingest job)',
      RevisionParams,
      PolicyRevisionSchema,
      'policy_not_found, revision_not_found',
    ),
    async (request) => {
      const { source, revision_id } = parse(RevisionParams, request.params, 'path');
      await requirePolicy(source);
      const revision = await registry.getRevision(source, revision_id);
      if (!revision)
        throw new AppError('revision_not_found', `Revision not found: ${revision_id} for policy ${source}`, {
          httpStatus: 404,
        });
      return PolicyRevisionSchema.parse(revision);
    },
  );

  app.delete(
    '/api/policies/:source/revisions/:revision_id',
    {
      schema: {
        tags: TAGS,
        summary:
          'Delete a revision: its chunks first, then the registry entry (the sole active one only with ?force=true)',
        params: params(RevisionParams),
        querystring: { type: 'object', properties: { force: { type: 'boolean', default: false } } },
        response: {
          200: jsonSchemaOf(RevisionDeletedResponseSchema),
          404: errorResponse('revision_not_found'),
          409: errorResponse('cannot_delete_sole_revision: nothing was removed'),
          ...common,
        },
      },
    },
    async (request) => {
      const { source, revision_id } = parse(RevisionParams, request.params, 'path');
      const { force } = parse(z.object({ force: z.enum(['true', 'false']).optional() }), request.query, 'query');
      const deleted = await deletePolicyRevision(policyKb, { source, revision_id, force: force === 'true' });
      // The uploaded file goes with its revision (only a file the admin API stored, never another path).
      const file = deleted.revision.file_path;
      // (`remove` touches only `<source>/<uuid>/` under this DATA_DIR's uploads/policies and that upload's blob, so a
      // revision another replica received loses its blob too)
      if (file) await uploads.remove(file);
      return RevisionDeletedResponseSchema.parse(deleted);
    },
  );
};
