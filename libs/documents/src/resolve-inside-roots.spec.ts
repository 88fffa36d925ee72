// SPDX-License-Identifier: AGPL-3.0-or-later
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '@lectern/contracts';
import { isInside, resolveInsideRoots } from './resolve-inside-roots.js';

/*
 * A real tree on disk:
 *   data/          the allowed root          data2/c.pdf    prefix collision     outside/secret.pdf
 *     a.pdf  sub/b.pdf  ünïcödé 文件.pdf  link-in.pdf -> a.pdf  link-out.pdf -> ../outside/secret.pdf
 *     dirlink -> ../outside   dangling -> ../outside/missing.pdf   loop -> loop   fifo
 *   rootlink -> data   (a symlinked root)
 */
let base: string;
let data: string;
let unicodeName: string;

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'lectern-roots-')));
  data = join(base, 'data');
  for (const d of ['data/sub', 'data2', 'outside']) mkdirSync(join(base, d), { recursive: true });
  unicodeName = 'ünïcödé 文件.pdf';
  for (const f of ['data/a.pdf', 'data/sub/b.pdf', `data/${unicodeName}`, 'data2/c.pdf', 'outside/secret.pdf']) {
    writeFileSync(join(base, f), '%PDF-1.4\n');
  }
  symlinkSync(join(data, 'a.pdf'), join(data, 'link-in.pdf'));
  symlinkSync('../outside/secret.pdf', join(data, 'link-out.pdf'));
  symlinkSync('../outside', join(data, 'dirlink'));
  symlinkSync('../outside/missing.pdf', join(data, 'dangling'));
  symlinkSync('loop', join(data, 'loop'));
  symlinkSync(data, join(base, 'rootlink'));
  execFileSync('mkfifo', [join(data, 'fifo')]);
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError) return e.code;
    throw e;
  }
  return 'resolved';
}

describe('resolveInsideRoots', () => {
  const roots = (): string[] => [data];

  it.each([
    ['a file in the root', 'data/a.pdf', 'data/a.pdf', 'file'],
    ['a file in a subdirectory', 'data/sub/b.pdf', 'data/sub/b.pdf', 'file'],
    ['the root itself', 'data', 'data', 'directory'],
    ['the root with a trailing slash', 'data/', 'data', 'directory'],
    ['a subdirectory with a trailing slash', 'data/sub/', 'data/sub', 'directory'],
    ['".." that stays inside', 'data/sub/../a.pdf', 'data/a.pdf', 'file'],
    ['"." and doubled slashes', 'data/./sub//b.pdf', 'data/sub/b.pdf', 'file'],
    ['a symlink to a file inside', 'data/link-in.pdf', 'data/a.pdf', 'file'],
    ['a path through the symlinked root', 'rootlink/sub/b.pdf', 'data/sub/b.pdf', 'file'],
  ])('accepts %s', async (_name, input, expected, kind) => {
    await expect(resolveInsideRoots(join(base, input), roots())).resolves.toEqual({
      path: join(base, expected),
      root: data,
      kind,
    });
  });

  it('accepts a unicode file name', async () => {
    const result = await resolveInsideRoots(join(data, unicodeName), roots());
    expect(result.path).toBe(join(data, unicodeName));
  });

  it.each([
    ['a prefix-colliding sibling (/data2 vs /data)', 'data2/c.pdf'],
    ['".." out of the root', 'data/../outside/secret.pdf'],
    ['".." into the prefix-colliding sibling', 'data/../data2/c.pdf'],
    ['many ".." segments', 'data/sub/../../../../../../etc/passwd'],
    ['a symlink to a file outside', 'data/link-out.pdf'],
    ['a path through a symlinked directory that leads outside', 'data/dirlink/secret.pdf'],
    ['the parent of the root', ''],
    ['a missing file outside the roots', 'outside/missing.pdf'],
    ['a missing file reached by ".." from inside', 'data/nodir/../../outside/missing.pdf'],
    ['a symlink loop', 'data/loop'],
  ])('refuses %s with forbidden_path', async (_name, input) => {
    await expect(codeOf(resolveInsideRoots(join(base, input), roots()))).resolves.toBe('forbidden_path');
  });

  it.each([
    ['a relative path', 'data/a.pdf'],
    ['a dot-relative path', './a.pdf'],
    ['an empty path', ''],
    ['a NUL byte', `${'/'}tmp/a.pdf\0.txt`],
  ])('refuses %s with forbidden_path', async (_name, input) => {
    await expect(codeOf(resolveInsideRoots(input, roots()))).resolves.toBe('forbidden_path');
  });

  it('refuses a NUL byte even in a path inside the root', async () => {
    await expect(codeOf(resolveInsideRoots(`${join(data, 'a.pdf')}\0`, roots()))).resolves.toBe('forbidden_path');
  });

  it.each([
    ['a missing file inside', 'data/missing.pdf'],
    ['a missing file in a missing directory inside', 'data/nodir/deeper/missing.pdf'],
    ['a path below a file', 'data/a.pdf/x'],
    ['a dangling symlink inside', 'data/dangling'],
    ['percent-encoded dots (a literal name)', 'data/%2e%2e/outside/secret.pdf'],
    ['backslashes (a literal name on POSIX)', 'data/..\\outside\\secret.pdf'],
  ])('reports %s as file_not_found', async (_name, input) => {
    await expect(codeOf(resolveInsideRoots(join(base, input), roots()))).resolves.toBe('file_not_found');
  });

  it('reports a FIFO as unsupported_file_type', async () => {
    await expect(codeOf(resolveInsideRoots(join(data, 'fifo'), roots()))).resolves.toBe('unsupported_file_type');
  });

  it('uses the real path of a symlinked root and accepts either spelling of a file', async () => {
    const viaLink = [join(base, 'rootlink')];
    await expect(resolveInsideRoots(join(data, 'a.pdf'), viaLink)).resolves.toMatchObject({ root: data });
    await expect(resolveInsideRoots(join(base, 'rootlink', 'a.pdf'), viaLink)).resolves.toMatchObject({
      path: join(data, 'a.pdf'),
    });
    await expect(codeOf(resolveInsideRoots(join(base, 'data2/c.pdf'), viaLink))).resolves.toBe('forbidden_path');
  });

  it('accepts a file in any of several roots, and roots written with a trailing slash', async () => {
    const several = [join(base, 'missing-root'), `${data}/`, join(base, 'data2')];
    await expect(resolveInsideRoots(join(base, 'data2/c.pdf'), several)).resolves.toMatchObject({
      root: join(base, 'data2'),
    });
    await expect(resolveInsideRoots(join(data, 'a.pdf'), several)).resolves.toMatchObject({ root: data });
  });

  it('allows nothing without roots, or with roots that do not exist', async () => {
    await expect(codeOf(resolveInsideRoots(join(data, 'a.pdf'), []))).resolves.toBe('forbidden_path');
    await expect(codeOf(resolveInsideRoots(join(data, 'a.pdf'), [join(base, 'nope'), '']))).resolves.toBe(
      'forbidden_path',
    );
  });

  it('gives errors with HTTP statuses and without the real path', async () => {
    const e = await resolveInsideRoots(join(data, 'link-out.pdf'), roots()).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).httpStatus).toBe(403);
    expect((e as AppError).message).not.toContain('secret');
    expect((e as AppError).message).not.toContain(base);
    const missing = await resolveInsideRoots(join(data, 'missing.pdf'), roots()).catch((x: unknown) => x);
    expect((missing as AppError).httpStatus).toBe(404);
  });
});

describe('isInside', () => {
  it.each([
    ['/data', '/data', true],
    ['/data/a.pdf', '/data', true],
    ['/data2/a.pdf', '/data', false],
    ['/dat', '/data', false],
    ['/anything', '/', true],
    ['/data/x', '/data/', true],
  ])('%s inside %s: %s', (child, root, expected) => {
    expect(isInside(child, root)).toBe(expected);
  });
});
