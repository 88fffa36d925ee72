// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Diagnostic: which planning questions Lectern could answer at all — is there any stored chunk that is
 * answer-bearing (metrics.ts) in spec 000's collection and in spec 004's project? A miss here is extraction or
 * chunking (the key phrase split across chunks, a file skipped), not ranking. Reads the cached store of run.ts
 * directly through the store port (scroll), since no tool lists every chunk.
 *   npx tsx bench/retrieval/eval/answerable.ts   (after a run.ts run on a planning set)
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { corpusFile, sharedModelDir, silentLogger } from '@lectern/testing';
import { composeDocumentStore } from '../../../apps/document-store-mcp/src/compose.js';
import { loadConfig } from '../../../apps/document-store-mcp/src/config.js';
import { PLANNING_PROJECT, SPEC000_PROJECT } from './lectern.js';
import { answerBearing, type Hit } from './metrics.js';
import { listPdfs } from './pdf-text.js';
import { loadSet } from './sets.js';

const root = join(process.env['TMPDIR'] ?? '/tmp', 'lectern-retrieval-eval');
const dir = existsSync(root)
  ? readdirSync(root)
      .filter((d) => d.startsWith('uk-planning-policy-') && existsSync(join(root, d, 'eval-index.json')))
      .map((d) => join(root, d))[0]
  : undefined;
if (!dir) throw new Error(`no cached planning store under ${root}: run run.ts --set planning-dev first`);
const docKeys = (JSON.parse(readFileSync(join(dir, 'eval-index.json'), 'utf8')) as { docKeys: Record<string, string> })
  .docKeys;
const config = loadConfig({
  DATA_DIR: dir,
  EMBEDDING_MODEL: 'potion-base-2M',
  EMBEDDING_MODEL_DIR: sharedModelDir('potion-base-2M'),
  LOG_LEVEL: 'silent',
});
const {
  documentStore: { deps },
  platform,
} = composeDocumentStore(config, silentLogger());
const pathKey = new Map(listPdfs(corpusFile('uk-planning-policy')).map((p) => [p.rel, p.hash]));
try {
  for (const collection of [SPEC000_PROJECT, PLANNING_PROJECT]) {
    const hits: Hit[] = [];
    let cursor: string | null = null;
    do {
      const page = await deps.store.scroll(collection, { limit: 1000, cursor });
      for (const p of page.points) {
        const pl = p.payload as Record<string, unknown>;
        hits.push({
          doc: docKeys[String(pl['document_id'])] ?? '?',
          pageStart: typeof pl['page_start'] === 'number' ? pl['page_start'] : null,
          pageEnd: typeof pl['page_end'] === 'number' ? pl['page_end'] : null,
          text: p.text,
        });
      }
      cursor = page.next;
    } while (cursor);
    for (const name of ['planning-dev', 'planning-heldout'] as const) {
      const set = loadSet(name);
      const missing = set.queries.filter(
        (q) =>
          !hits.some((h) =>
            answerBearing(h, {
              docs: new Set([pathKey.get(q.docs[0] as string) as string]),
              page: q.page as number,
              keyPhrase: q.keyPhrase as string,
            }),
          ),
      );
      process.stdout.write(
        `${collection} (${hits.length} chunks) ${name}: answerable ${set.queries.length - missing.length}/${set.queries.length}; not: ${missing.map((q) => q.id).join(' ')}\n`,
      );
    }
  }
} finally {
  await platform.close();
}
