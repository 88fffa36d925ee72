// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { commonEnvShape, ConfigError, envBool, envInt, envList, envPort, parseEnv } from './env.js';

describe('parseEnv', () => {
  const schema = z.object({
    PORT: envPort(3002),
    ENABLE_OCR: envBool(true),
    BATCH: envInt(32, 1, 512),
    ROOTS: envList(['./data']),
  });

  it('applies defaults for unset and blank variables', () => {
    expect(parseEnv(schema, { ENABLE_OCR: '' })).toEqual({
      PORT: 3002,
      ENABLE_OCR: true,
      BATCH: 32,
      ROOTS: ['./data'],
    });
  });

  it('reads set variables', () => {
    expect(parseEnv(schema, { PORT: '4000', ENABLE_OCR: 'false', BATCH: '8', ROOTS: '/a, /b,' })).toEqual({
      PORT: 4000,
      ENABLE_OCR: false,
      BATCH: 8,
      ROOTS: ['/a', '/b'],
    });
  });

  it('names every bad variable', () => {
    let caught: unknown;
    try {
      parseEnv(schema, { PORT: 'eighty', ENABLE_OCR: 'maybe', BATCH: '0' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const message = (caught as ConfigError).message;
    expect(message).toContain('PORT');
    expect(message).toContain('ENABLE_OCR');
    expect(message).toContain('BATCH');
    expect((caught as ConfigError).problems).toHaveLength(3);
  });
});

describe('commonEnvShape', () => {
  const schema = z.object(commonEnvShape);

  it('defaults PDF_ENGINE to auto and accepts native or wasm', () => {
    expect(parseEnv(schema, {}).PDF_ENGINE).toBe('auto');
    expect(parseEnv(schema, { PDF_ENGINE: 'wasm' }).PDF_ENGINE).toBe('wasm');
    expect(parseEnv(schema, { PDF_ENGINE: 'native' }).PDF_ENGINE).toBe('native');
  });

  it('rejects an unknown PDF_ENGINE, naming the variable', () => {
    expect(() => parseEnv(schema, { PDF_ENGINE: 'pdfium' })).toThrow(/PDF_ENGINE/);
  });

  it('defaults OCR_ENGINE to auto, accepts native or wasm, and rejects anything else naming the variable', () => {
    expect(parseEnv(schema, {}).OCR_ENGINE).toBe('auto');
    expect(parseEnv(schema, { OCR_ENGINE: '' }).OCR_ENGINE).toBe('auto');
    expect(parseEnv(schema, { OCR_ENGINE: 'native' }).OCR_ENGINE).toBe('native');
    expect(parseEnv(schema, { OCR_ENGINE: 'wasm' }).OCR_ENGINE).toBe('wasm');
    expect(() => parseEnv(schema, { OCR_ENGINE: 'tesseract' })).toThrow(ConfigError);
    expect(() => parseEnv(schema, { OCR_ENGINE: 'tesseract' })).toThrow(/OCR_ENGINE/);
  });
});
