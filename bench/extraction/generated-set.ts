// SPDX-License-Identifier: AGPL-3.0-or-later
import { contractDocs, receiptDocs } from '@lectern/testing';
import type { BenchDocument } from './documents.js';

/**
 * The generated set (clearly marked `source: 'generated'`): the contracts and receipts of
 * `libs/testing/src/business-docs.ts`, real PDFs in several layouts, written while the extractor's contract and
 * receipt rules were written — so they are tuning material, not a held-out report set.
 */
export const generatedDocuments = (): BenchDocument[] =>
  [...contractDocs(), ...receiptDocs()].map((d) => ({
    name: `${d.name} (generated, ${d.layout})`,
    split: 'tuning',
    source: 'generated',
    filename: d.name,
    bytes: () => d.pdf,
    schema: d.schema,
    expected: d.expected,
  }));
