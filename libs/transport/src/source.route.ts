// SPDX-License-Identifier: AGPL-3.0-or-later
import type { FastifyInstance } from 'fastify';
import { existsSync, readFileSync, type Dirent } from 'node:fs';
import { lstat, readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { sourceUrl } from '@lectern/runtime';

/**
 * AGPL-3.0 §13: a network user of a Lectern service is offered the program's Corresponding Source. Where it is:
 * `LECTERN_SOURCE_URL` (or package.json's `repository`, which this project does not set) when configured; otherwise
 * `GET /source` on the service itself, a `.tar.gz` of the source of the code that runs:
 * - `dist/source.tar.gz` when the process runs the build (`npm run build` writes it from the tree it compiled, so an
 *   installed package and the image carry the source of their own `dist/`);
 * - else (a checkout run through tsx) made from the checkout's files on the first request, kept in memory.
 * The archive holds the allow-listed parts of the package root (`SOURCE_TOP_LEVEL`), never `node_modules`, build
 * output, dot-directories, `.env` files or the running service's `DATA_DIR`, and is bounded (`SOURCE_LIMITS`).
 */
export const SOURCE_PATH = '/source';

/** The package root: this module is `libs/transport/src/` under it (in a checkout and in the build alike). */
export const packageRoot = (): string => resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The entries of the package root that are source (everything needed to build, install and run). */
const SOURCE_TOP_LEVEL = new Set([
  'apps',
  'libs',
  'tools',
  'bench',
  'deploy',
  'docs',
  '.ci',
  'package.json',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'tsconfig.json',
  'tsconfig.base.json',
  'nx.json',
  'eslint.config.mjs',
  'jest.config.mjs',
  'jest.corpus.config.mjs',
  'docker-compose.yml',
  'LICENSE',
  'README.md',
  'CHANGELOG.md',
  'CONTRIBUTING.md',
  'SECURITY.md',
  '.npmrc',
  '.env.example',
  '.dockerignore',
  '.gitignore',
  '.prettierrc.json',
  '.prettierignore',
]);
/** Directories never in the archive, wherever they are (dependencies, build output, caches). */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'build', 'coverage', 'tmp']);

export const SOURCE_LIMITS = { maxFiles: 20_000, maxBytes: 64 * 1024 * 1024 } as const;

export class SourceArchiveError extends Error {}

const skipped = (entry: Dirent): boolean => {
  if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) || entry.name.startsWith('.');
  // secrets (`.env`, `.env.local`, …) and generated hidden worker bundles; `.env.example` is source
  return entry.name.startsWith('.env') ? entry.name !== '.env.example' : /^\..*\.bundle\./.test(entry.name);
};

/** The source files under `root`, relative, sorted (at most `SOURCE_LIMITS`, else `SourceArchiveError`). */
export const listSourceFiles = async (
  root: string,
  excluded: readonly string[] = [],
): Promise<Array<{ path: string; size: number; mode: number; mtime: Date }>> => {
  const out: Array<{ path: string; size: number; mode: number; mtime: Date }> = [];
  let bytes = 0;
  const walk = async (dir: string): Promise<void> => {
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (dir === root ? !SOURCE_TOP_LEVEL.has(entry.name) : skipped(entry)) continue;
      if (excluded.some((d) => path === d || path.startsWith(d + sep))) continue;
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) {
        const stat = await lstat(path);
        bytes += stat.size;
        out.push({
          path: relative(root, path).split(sep).join('/'),
          size: stat.size,
          mode: stat.mode,
          mtime: stat.mtime,
        });
        if (out.length > SOURCE_LIMITS.maxFiles || bytes > SOURCE_LIMITS.maxBytes)
          throw new SourceArchiveError(
            `the source tree is over ${SOURCE_LIMITS.maxFiles} files or ${SOURCE_LIMITS.maxBytes} bytes`,
          );
      } // symbolic links are not followed (a link out of the tree would leak files)
    }
  };
  await walk(root);
  return out;
};

// A POSIX ustar writer, hand-written: no tar library is among the production dependencies, and the format is a
// fixed 512-byte header per file (plus a pax `path=` record for paths over the header's 255 characters).
const BLOCK = 512;
const octal = (value: number, width: number): string => value.toString(8).padStart(width - 1, '0') + '\0';
const header = (name: string, size: number, mode: number, mtime: number, type: '0' | 'x', prefix = ''): Buffer => {
  const block = Buffer.alloc(BLOCK);
  block.write(name, 0, 100, 'utf8');
  block.write(octal(mode & 0o7777, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii');
  block.write(octal(0, 8), 116, 'ascii');
  block.write(octal(size, 12), 124, 'ascii');
  block.write(octal(Math.floor(mtime / 1000), 12), 136, 'ascii');
  block.write(' '.repeat(8), 148, 'ascii');
  block.write(type, 156, 'ascii');
  block.write('ustar\u000000', 257, 'ascii');
  block.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(octal(sum, 7) + ' ', 148, 'ascii');
  return block;
};
const padding = (size: number): Buffer => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

const entryHeaders = (path: string, size: number, mode: number, mtime: number): Buffer[] => {
  if (Buffer.byteLength(path) <= 100) return [header(path, size, mode, mtime, '0')];
  const cut = path.lastIndexOf('/', 155);
  if (cut > 0 && Buffer.byteLength(path.slice(0, cut)) <= 155 && Buffer.byteLength(path.slice(cut + 1)) <= 100)
    return [header(path.slice(cut + 1), size, mode, mtime, '0', path.slice(0, cut))];
  // pax extended header: "<length> path=<path>\n", the length counting itself
  const body = ` path=${path}\n`;
  let length = Buffer.byteLength(body) + 1;
  while (String(length).length + Buffer.byteLength(body) !== length) length += 1;
  const record = Buffer.from(`${length}${body}`);
  return [
    header('PaxHeader', record.length, 0o644, mtime, 'x'),
    record,
    padding(record.length),
    header(path.slice(-100), size, mode, mtime, '0'),
  ];
};

/** The gzipped tar of the source files under `root`, each under `<top>/` in the archive. */
export const buildSourceArchive = async (root: string, top: string, excluded: readonly string[] = []) => {
  const parts: Buffer[] = [];
  for (const file of await listSourceFiles(root, excluded)) {
    const content = await readFile(join(root, file.path));
    parts.push(...entryHeaders(`${top}/${file.path}`, content.length, file.mode, file.mtime.getTime()));
    parts.push(content, padding(content.length));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return promisify(gzip)(Buffer.concat(parts));
};

const archiveName = (root: string): string => {
  const { name, version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    name?: string;
    version?: string;
  };
  return `${name ?? 'lectern'}-${version ?? '0.0.0'}`;
};

let cached: Promise<Buffer> | undefined;

/** The archive served: the build's, else one made from the checkout (once per process; a failure is not kept). */
const sourceArchive = (): Promise<Buffer> => {
  if (cached) return cached;
  const root = packageRoot();
  const built = join(root, 'dist', 'source.tar.gz');
  const dataDir = process.env['DATA_DIR']?.trim();
  // the build's archive only when this process runs the build (a checkout run through tsx may have an older dist/)
  const compiled = (globalThis as Record<symbol, unknown>)[Symbol.for('lectern.compiled')] === true;
  cached =
    compiled && existsSync(built)
      ? readFile(built)
      : buildSourceArchive(root, archiveName(root), dataDir ? [resolve(dataDir)] : []);
  cached.catch(() => {
    cached = undefined;
  });
  return cached;
};

/** Where this program's source is: `LECTERN_SOURCE_URL` (or package.json's `repository`), else `/source` here. */
export const sourceLink = (): string => sourceUrl() ?? SOURCE_PATH;

/** `GET /source` (no token: the source holds no user data). */
export const registerSourceRoute = (app: FastifyInstance): void => {
  app.get(
    SOURCE_PATH,
    {
      schema: {
        summary: 'The Corresponding Source of this program (AGPL-3.0 §13), a .tar.gz (no token needed)',
        security: [],
      },
    },
    async (request, reply) => {
      try {
        const archive = await sourceArchive();
        return reply
          .header('content-type', 'application/gzip')
          .header('content-disposition', `attachment; filename="${archiveName(packageRoot())}-source.tar.gz"`)
          .header('cache-control', 'public, max-age=3600')
          .send(archive);
      } catch (err) {
        request.log.error({ err }, 'the source archive could not be made');
        const message =
          err instanceof SourceArchiveError
            ? `The source archive could not be made: ${err.message}.`
            : 'The source archive could not be made. The server log has the details.';
        return reply.code(503).send({ error: { code: 'source_unavailable', message } });
      }
    },
  );
};
