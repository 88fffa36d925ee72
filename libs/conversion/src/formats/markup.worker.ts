// SPDX-License-Identifier: AGPL-3.0-or-later
// DOCX (mammoth -> HTML) and HTML -> Markdown (turndown + GFM tables), in a worker thread started per
// document with a memory cap: a decompression bomb or a pathological file exhausts this worker, not the
// process, and the caller's timeout terminates it. Started by `run-markup.ts` through the tsx worker bootstrap
// (@lectern/runtime); the messages are typed in `markup.protocol.ts`.
import { Buffer } from 'node:buffer';
import { TextDecoder } from 'node:util';
import { parentPort, workerData } from 'node:worker_threads';
import mammoth from 'mammoth';
import TurndownService from 'turndown';
import { gfm } from 'turndown-plugin-gfm';
import { MAX_NESTING_DEPTH, nestsDeeperThan } from './markup-depth.js';
import type { MarkupOutput, MarkupReply, MarkupWorkerData } from './markup.protocol.js';

/** A document over a limit: answered as a typed `too_large`, not a crash. */
class OverLimit extends Error {}

/** What the rules read of a node of turndown's parsed document (its types name browser DOM classes). */
interface MarkupNode {
  nodeName: string;
  parentNode: MarkupNode | null;
  getAttribute(name: string): string | null;
}

function inCell(node: MarkupNode): boolean {
  for (let p = node.parentNode; p; p = p.parentNode) {
    if (p.nodeName === 'TD' || p.nodeName === 'TH') return true;
    if (p.nodeName === 'TABLE') return false;
  }
  return false;
}

function turndown(): TurndownService {
  const td = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '_',
  });
  td.use(gfm);
  td.remove([
    'script',
    'style',
    'noscript',
    'template',
    'head',
    'title',
    'iframe',
    'object',
    'svg',
    'canvas',
    'nav',
    'form',
    'button',
  ]);
  // Paragraphs, line breaks and lists inside table cells would break the one-line GFM row.
  td.addRule('cellBlock', {
    filter: (node: MarkupNode) => ['P', 'DIV', 'UL', 'OL', 'LI'].includes(node.nodeName) && inCell(node),
    replacement: (content: string) => ` ${content.replace(/\s*\n\s*/g, ' ').trim()} `,
  });
  td.addRule('cellBreak', {
    filter: (node: MarkupNode) => node.nodeName === 'BR' && inCell(node),
    replacement: () => ' ',
  });
  // Images carry no text here (mammoth inlines them as data: URIs): keep the alt text only.
  td.addRule('image', {
    filter: 'img',
    replacement: (_content: string, node: MarkupNode) => {
      const alt = (node.getAttribute('alt') || '').trim();
      return alt ? `[image: ${alt}]` : '';
    },
  });
  return td;
}

/**
 * turndown-plugin-gfm keeps tables without a header row as raw HTML; mammoth and most hand-written HTML
 * never mark one. Promote the first row of each table to header cells so every table becomes Markdown.
 */
function promoteHeaderRows(html: string): string {
  return html.replace(/<table\b[^>]*>[\s\S]*?<\/table>/gi, (table: string) => {
    if (/<th\b/i.test(table)) return table;
    return table.replace(/<tr\b[^>]*>[\s\S]*?<\/tr>/i, (tr: string) =>
      tr.replace(/<td\b/gi, '<th').replace(/<\/td>/gi, '</th>'),
    );
  });
}

/** The declared charset, else UTF-8 when valid, else Windows-1252 (legacy pages). */
function decodeHtml(bytes: Uint8Array): string {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 2048));
  const label = /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1];
  if (label !== undefined && !/^(windows-1252|cp1252|iso-8859-1|latin1|us-ascii)$/i.test(label)) {
    try {
      return new TextDecoder(label).decode(bytes);
    } catch {
      // unknown label: fall through
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // Windows-1252 by hand: Node builds without full ICU decode that label as plain Latin-1
    return new TextDecoder('latin1')
      .decode(bytes)
      .replace(/[\u0080-\u009f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80] || c);
  }
}

const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ';

function titleOf(html: string): string | null {
  const m = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  return m ? (m[1] as string).replace(/\s+/g, ' ').trim() || null : null;
}

function htmlToMarkdown(html: string): string {
  // before any parsing: the DOM parser and turndown's recursive walk cost minutes on pathological nesting
  if (nestsDeeperThan(html)) throw new OverLimit(`the document nests elements more than ${MAX_NESTING_DEPTH} deep`);
  // the <head> (title, meta, styles) is not body text; the parser would otherwise keep the title's text
  const body = html.replace(/<head\b[\s\S]*?<\/head>/i, '').replace(/<title\b[\s\S]*?<\/title>/gi, '');
  const md = turndown().turndown(promoteHeaderRows(body));
  return md
    .split('\n')
    .map(
      (line) =>
        /^\|.*\|$/.test(line)
          ? line.replace(/\s{2,}/g, ' ') // table rows: cell padding from the GFM rule
          : line.replace(/^(\s*)(-|\d+\.) {2,}(?=\S)/, '$1$2 '), // turndown pads list markers to 4 columns
    )
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

async function run({ op, bytes }: MarkupWorkerData): Promise<MarkupOutput> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (op === 'docx') {
    const out = await mammoth.convertToHtml({ buffer });
    const warnings = out.messages.filter((m) => m.type === 'error').map((m) => m.message);
    return { markdown: htmlToMarkdown(out.value), title: null, warnings };
  }
  const html = decodeHtml(bytes);
  return { markdown: htmlToMarkdown(html), title: titleOf(html), warnings: [] };
}

const reply = (message: MarkupReply): void => {
  if (!parentPort) throw new Error('markup.worker.ts runs in a worker thread (see run-markup.ts)');
  parentPort.postMessage(message);
};

run(workerData as MarkupWorkerData).then(
  (result) => reply({ ok: true, result }),
  (e: unknown) =>
    reply({
      ok: false,
      error: String((e as { message?: unknown } | null | undefined)?.message || e),
      ...(e instanceof OverLimit ? { code: 'too_large' as const } : {}),
    }),
);
