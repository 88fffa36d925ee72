// SPDX-License-Identifier: AGPL-3.0-or-later
// The channel between `run-markup.ts` (main thread) and `markup.worker.ts`: one worker per document, started
// with the document in its workerData, answering with one message.

/** Which converter the worker runs: DOCX (mammoth, then HTML to Markdown) or HTML. */
export type MarkupOp = 'docx' | 'html';

/** The worker's `workerData`. */
export interface MarkupWorkerData {
  op: MarkupOp;
  bytes: Uint8Array;
}

export interface MarkupOutput {
  markdown: string;
  title: string | null;
  warnings: string[];
}

/** The worker's one message. */
/** `code`: a typed refusal (the document is over a limit), passed on as that conversion error. */
export type MarkupReply = { ok: true; result: MarkupOutput } | { ok: false; error: string; code?: 'too_large' };
