// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commonEnvShape, ConfigError, parseEnv } from '@lectern/runtime';
import { silentLogger } from '@lectern/testing';
import { documentInputEnvShape } from './platform.env.js';
import { z } from 'zod';
import { createPlatform, type Platform } from './platform.js';
import { serviceConversion } from './service-conversion.js';

// OCR_ENGINE as every service that converts reads it: the variable, the service's conversion settings, the
// platform's conversion engine. (Which program then reads a page: libs/conversion/src/ocr/ocr-native.spec.ts.)
const Schema = z.object({ OCR_ENGINE: commonEnvShape.OCR_ENGINE, ENABLE_OCR: documentInputEnvShape.ENABLE_OCR });

describe('OCR_ENGINE through serviceConversion', () => {
  let dataDir: string;
  const platforms: Platform[] = [];
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'lectern-ocr-engine-'));
  });
  afterAll(async () => {
    await Promise.all(platforms.map((p) => p.close()));
    rmSync(dataDir, { recursive: true, force: true });
  });
  /** A service's conversion engine from its variables (the platform builds it once; `.engine` is that one). */
  const engineFor = (env: Record<string, string>) => {
    const config = parseEnv(Schema, env);
    const platform = createPlatform({ dataDir, log: silentLogger() });
    platforms.push(platform);
    serviceConversion(platform, { ocrEngine: config.OCR_ENGINE, enableOcr: config.ENABLE_OCR, maxDocumentBytes: 1e6 });
    return platform.conversion({ workers: { embedded: 1, distributed: 0 } }).engine;
  };

  it('reads pages with the native program by default (tesseract is on PATH here) and with tesseract.js when asked', async () => {
    await expect(engineFor({}).ocrEngineInUse()).resolves.toMatchObject({
      engine: 'native',
      reason: 'tesseract on PATH',
    });
    await expect(engineFor({ OCR_ENGINE: 'native' }).ocrEngineInUse()).resolves.toMatchObject({ engine: 'native' });
    await expect(engineFor({ OCR_ENGINE: 'wasm' }).ocrEngineInUse()).resolves.toMatchObject({
      engine: 'wasm',
      reason: 'OCR_ENGINE=wasm',
    });
  });

  it('refuses a value it does not know, naming the variable', () => {
    expect(() => engineFor({ OCR_ENGINE: 'tesseract' })).toThrow(ConfigError);
    expect(() => engineFor({ OCR_ENGINE: 'tesseract' })).toThrow(/OCR_ENGINE/);
  });

  it('stops a service asked for the native program where none is on PATH (unless OCR is off); auto falls back', async () => {
    const path = process.env['PATH'];
    process.env['PATH'] = '/nonexistent';
    try {
      expect(() => engineFor({ OCR_ENGINE: 'native' })).toThrow(ConfigError);
      expect(() => engineFor({ OCR_ENGINE: 'native' })).toThrow(
        /OCR_ENGINE: native needs the tesseract program on PATH/,
      );
      expect(() => engineFor({ OCR_ENGINE: 'native', ENABLE_OCR: 'false' })).not.toThrow();
      await expect(engineFor({}).ocrEngineInUse()).resolves.toMatchObject({ engine: 'wasm' });
    } finally {
      process.env['PATH'] = path;
    }
  });
});
