// SPDX-License-Identifier: AGPL-3.0-or-later
// Test worker for ts-worker.spec.ts: TypeScript-only syntax (types, `satisfies`), answers with what it was given.
import { parentPort, workerData } from 'node:worker_threads';

interface EchoData {
  greeting: string;
  __entry?: string;
}

const data = workerData as EchoData;
const reply = { greeting: data.greeting.toUpperCase(), entry: data.__entry ?? null } satisfies Record<string, unknown>;
parentPort?.postMessage(reply);
