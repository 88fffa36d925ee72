// SPDX-License-Identifier: AGPL-3.0-or-later
import { readFile } from 'node:fs/promises';
import { endianness } from 'node:os';
import { AppError } from '@lectern/contracts';
import { z } from 'zod';

/** The error code of a model file that is present but unusable (truncated, malformed, wrong tensor). */
export const MODEL_FILE_INVALID = 'model_file_invalid';

/** A model file that cannot be used; the message names the file and what is wrong with it. */
export const modelFileError = (file: string, reason: string, cause?: unknown): AppError =>
  new AppError(MODEL_FILE_INVALID, `${file}: ${reason}`, { httpStatus: 503, cause });

/** Element types this reader converts to float32 (the ones Model2Vec models are published in). */
export const SAFETENSORS_DTYPES = ['F32', 'F16', 'I8'] as const;
export type SafetensorsDtype = (typeof SAFETENSORS_DTYPES)[number];
const BYTES: Record<string, number> = {
  F64: 8,
  F32: 4,
  F16: 2,
  BF16: 2,
  I64: 8,
  I32: 4,
  I16: 2,
  I8: 1,
  U8: 1,
  BOOL: 1,
};

const TensorInfoSchema = z.object({
  dtype: z.string(),
  shape: z.array(z.number().int().nonnegative()),
  data_offsets: z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]),
});
export type TensorInfo = z.infer<typeof TensorInfoSchema>;

export interface SafetensorsFile {
  file: string;
  tensors: ReadonlyMap<string, TensorInfo>;
  metadata: Record<string, string>;
  /** The data section (tensor offsets are relative to its start). */
  data: Buffer;
}

/** Header JSON larger than this is not a model header (the format's own reference reader caps it at 100 MB). */
const MAX_HEADER = 100 * 1024 * 1024;

/**
 * Parses a safetensors file: an 8-byte little-endian header length, that many bytes of JSON
 * (`{name: {dtype, shape, data_offsets}, __metadata__?}`), then the raw little-endian tensor data.
 * Every tensor's byte range is checked against its dtype and shape and against the file's length, so a truncated
 * or malformed file fails here with MODEL_FILE_INVALID instead of producing garbage vectors later.
 */
export const parseSafetensors = (bytes: Buffer, file: string): SafetensorsFile => {
  if (bytes.length < 8)
    throw modelFileError(file, `truncated: ${bytes.length} bytes, not even the 8-byte header length`);
  const headerLength = Number(bytes.readBigUInt64LE(0));
  if (headerLength > MAX_HEADER) throw modelFileError(file, `not a safetensors file (header length ${headerLength})`);
  if (8 + headerLength > bytes.length) {
    throw modelFileError(file, `truncated: header of ${headerLength} bytes announced, file has ${bytes.length} bytes`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8', 8, 8 + headerLength));
  } catch (cause) {
    throw modelFileError(file, 'not a safetensors file (its header is not JSON)', cause);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw modelFileError(file, 'not a safetensors file (header is not an object)');
  const data = bytes.subarray(8 + headerLength);
  const tensors = new Map<string, TensorInfo>();
  let metadata: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (name === '__metadata__') {
      metadata = z.record(z.string(), z.string()).catch({}).parse(value);
      continue;
    }
    const parsed = TensorInfoSchema.safeParse(value);
    if (!parsed.success) throw modelFileError(file, `tensor "${name}" has a malformed header entry`);
    const info = parsed.data;
    const [begin, end] = info.data_offsets;
    const width = BYTES[info.dtype];
    if (width === undefined) throw modelFileError(file, `tensor "${name}" has an unknown dtype ${info.dtype}`);
    const expected = info.shape.reduce((a, b) => a * b, 1) * width;
    if (end < begin || end - begin !== expected) {
      throw modelFileError(
        file,
        `tensor "${name}" (${info.dtype} [${info.shape.join(', ')}]) spans ${end - begin} bytes, expected ${expected}`,
      );
    }
    if (end > data.length) {
      throw modelFileError(
        file,
        `truncated: tensor "${name}" ends at byte ${end} of the data section, which has ${data.length} bytes`,
      );
    }
    tensors.set(name, info);
  }
  return { file, tensors, metadata, data };
};

export const readSafetensors = async (file: string): Promise<SafetensorsFile> =>
  parseSafetensors(await readFile(file), file);

/** IEEE 754 half precision -> number. */
const halfToFloat = (h: number): number => {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
};

/**
 * A tensor's values as float32 (a copy). F16 is widened exactly; I8 values are taken as they are (Model2Vec's int8
 * export has one scale for the whole matrix, which the mean and the L2 normalisation cancel).
 */
export const tensorToFloat32 = (st: SafetensorsFile, name: string): Float32Array => {
  const info = st.tensors.get(name);
  if (!info)
    throw modelFileError(st.file, `has no tensor "${name}" (tensors: ${[...st.tensors.keys()].join(', ') || 'none'})`);
  const [begin, end] = info.data_offsets;
  const bytes = st.data.subarray(begin, end);
  const n = info.shape.reduce((a, b) => a * b, 1);
  const out = new Float32Array(n);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  switch (info.dtype) {
    case 'F32':
      if (endianness() === 'LE') new Uint8Array(out.buffer).set(bytes);
      else for (let i = 0; i < n; i++) out[i] = view.getFloat32(i * 4, true);
      return out;
    case 'F16':
      for (let i = 0; i < n; i++) out[i] = halfToFloat(view.getUint16(i * 2, true));
      return out;
    case 'I8':
      for (let i = 0; i < n; i++) out[i] = view.getInt8(i);
      return out;
    default:
      throw modelFileError(st.file, `tensor "${name}" is ${info.dtype}; supported: ${SAFETENSORS_DTYPES.join(', ')}`);
  }
};
