import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import type { ConversionJobPayload, ConversionJobResult } from '@lectern/contracts';
import { convertDocument } from '@lectern/conversion';
import type { ConvertPort } from '@lectern/document-store';
import { loadConversionResult, stageConversionFile, type JobQueue } from '@lectern/queue';

/** Embedded mode: conversion runs in this process (OCR in its worker pool). */
export const inProcessConvert: ConvertPort = (request) =>
  convertDocument(
    { path: request.path },
    {
      enableOcr: request.enableOcr,
      imageRatioThreshold: request.imageRatioThreshold,
      ...(request.signal ? { signal: request.signal } : {}),
      ...(request.onProgress ? { onProgress: request.onProgress } : {}),
    },
  );

/**
 * Distributed mode: the file is staged in the shared data directory and converted by a converter worker
 * through the `conversion` queue (the job id is derived from the content and the options, so the same
 * file converts once per option set however many replicas ask).
 */
export const queueConvert =
  (queue: JobQueue<ConversionJobPayload, ConversionJobResult>, dataDir: string, maxBytes: number): ConvertPort =>
  async (request) => {
    const staged = await stageConversionFile(dataDir, createReadStream(request.path), basename(request.path), { maxBytes });
    const handle = await queue.add(
      {
        version: 1,
        file: staged.file,
        filename: staged.filename,
        sha256: staged.sha256,
        byte_size: staged.byteSize,
        options: { enableOcr: request.enableOcr, imageRatioThreshold: request.imageRatioThreshold },
      },
      { jobId: `convert-${staged.sha256}-${request.enableOcr ? 'ocr' : 'text'}` },
    );
    const stop = handle.onProgress(({ detail }) => {
      const page = Number(detail?.['page']);
      const pages = Number(detail?.['pages']);
      request.onProgress?.({
        stage: String(detail?.['stage'] ?? 'converting'),
        ...(Number.isFinite(page) ? { page } : {}),
        ...(Number.isFinite(pages) ? { pages } : {}),
      });
    });
    try {
      return await loadConversionResult(dataDir, await handle.result());
    } finally {
      stop();
    }
  };

