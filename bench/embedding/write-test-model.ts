// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Writes the MiniLM-shaped random-weights fp32 model (the one every embedding bench uses) to a file, for tools
 * outside Node (ort-fusion.py).
 *
 *   npx tsx bench/embedding/write-test-model.ts /tmp/minilm/model.onnx
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeMiniLmShapedOnnx } from '../../libs/embedding/src/test-model/minilm-onnx.builder.js';

const file = process.argv[2];
if (!file) throw new Error('usage: write-test-model.ts <file.onnx>');
await mkdir(dirname(file), { recursive: true });
await writeMiniLmShapedOnnx(file, { seed: 1 });
console.log(`wrote ${file}`);
