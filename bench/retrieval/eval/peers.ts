// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * The two peers Lectern is measured against, over the same texts: (1) plain Okapi BM25 (bench/embedding/bm25.ts:
 * no BM25 package is installed and that file is the repository's ~40-line reference, k1 1.2, b 0.75) and (2) exact
 * dense search, brute-force cosine with the same embedder Lectern uses. Planning: PyMuPDF page text cut into
 * 800-character windows; SciFact: one text per abstract (`title. text`), as Lectern stores them.
 */
import type { Embedder } from '@lectern/embedding';
import { Bm25, topK } from '../../embedding/bm25.js';
import type { Hit } from './metrics.js';

export interface PeerText {
  doc: string;
  /** 1-based page (null for SciFact abstracts). */
  page: number | null;
  text: string;
}

export interface Peer {
  search(query: string, k: number): Promise<Hit[]>;
}

const hit = (t: PeerText): Hit => ({ doc: t.doc, pageStart: t.page, pageEnd: t.page, text: t.text });

export const bm25Peer = (texts: readonly PeerText[]): Peer => {
  const index = new Bm25(
    texts.map((_, i) => String(i)),
    texts.map((t) => t.text),
  );
  return {
    search: async (query, k) => index.search(query, k).map((r) => hit(texts[Number(r.id)] as PeerText)),
  };
};

const unit = (v: Float32Array): Float32Array => {
  let n = 0;
  for (const x of v) n += x * x;
  const s = n > 0 ? 1 / Math.sqrt(n) : 0;
  return v.map((x) => x * s);
};

export const densePeer = async (texts: readonly PeerText[], embedder: Embedder): Promise<Peer> => {
  const vectors: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += 256)
    for (const v of await embedder.embedBatch(texts.slice(i, i + 256).map((t) => t.text))) vectors.push(unit(v));
  return {
    search: async (query, k) => {
      const q = unit(await embedder.embed(query));
      const scores = new Float64Array(vectors.length);
      vectors.forEach((v, i) => {
        let dot = 0;
        for (let d = 0; d < q.length; d++) dot += (q[d] as number) * (v[d] as number);
        scores[i] = dot;
      });
      return topK(scores, k, false).map((i) => hit(texts[i] as PeerText));
    },
  };
};
