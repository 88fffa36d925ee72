// SPDX-License-Identifier: AGPL-3.0-or-later
import type { ConversionResult } from '@lectern/contracts';
import type { ConversionEngine } from '@lectern/conversion';
import { discardReceivedFile } from '@lectern/conversion-job';
import { requestSignal, type Admission } from '@lectern/transport';
import type { FastifyInstance } from 'fastify';
import { convertSchema } from './openapi.schemas.js';
import { receiveDocument, wantsMarkdown, type UploadLimits } from './upload.js';

/** `defaults`: the operator's limits; options asking for more are refused (the engine clamps them too). */
export interface ConvertRouteDeps extends UploadLimits {
  /** Converts with the service's settings and limits (client options may lower the limits only). */
  engine: Pick<ConversionEngine, 'convert'>;
  /** Bounds the conversions run at once and the requests waiting for one (503 + Retry-After beyond). */
  admission: Admission;
}

/** `POST /convert`: multipart `file` -> ConversionResult JSON (or Markdown with `Accept: text/markdown`). */
export const registerConvertRoute = (app: FastifyInstance, deps: ConvertRouteDeps): void => {
  app.post('/convert', { onRequest: deps.admission.onRequest, schema: convertSchema }, async (request, reply) => {
    // A client that hangs up, or the service shutting down, stops its conversion (the pools are shared with the
    // queue's jobs); the engine bounds it by CONVERSION_TIMEOUT_MS.
    const signal = requestSignal(request, reply);
    const { received, options } = await receiveDocument(request, deps);
    // converted from the request's private copy, deleted however the conversion ends
    const result: ConversionResult = await deps.engine
      // page markers on unless the request turns them off: a reader of this output sees where pages start
      .convert({ path: received.absolutePath }, { pageMarkers: true, ...options, signal })
      .finally(() => discardReceivedFile(received));
    request.log.info(
      { fingerprint: result.fingerprint, pages: result.page_count, method: result.method, ms: result.duration_ms },
      'converted',
    );
    if (wantsMarkdown(request)) return reply.type('text/markdown; charset=utf-8').send(result.markdown);
    return result;
  });
};
