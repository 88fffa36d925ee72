// SPDX-License-Identifier: AGPL-3.0-or-later
import { listenOnFreePort, silentLogger } from '@lectern/testing';
import type { FastifyInstance } from 'fastify';
import type { Platform } from '@lectern/platform';
import { buildApp } from './app.js';
import { composeExtraction, extractionAppDeps } from './compose.js';
import { loadConfig } from './config.js';

/** A small datasheet in Markdown: a ratings table and key-value lines (no ../shared needed). */
export const WIDGET_MD = `# Widget W-100 datasheet

The W-100 is a compact industrial widget for conveyor drives and packaging lines.

## Electrical ratings

| Parameter | Unit | W-100 |
| --- | --- | --- |
| Rated voltage | V | 230 |
| Rated current | A | 1.6 |
| Rated power | W | 200 |

## Environment

Protection class: IP65 for the housing and all connectors of the widget.

Operating temperature: 0 to 40 °C in normal operation, storage from -20 to 65 °C.
`;

export const WIDGET_SCHEMA = {
  electrical: { rated_voltage: '', rated_current: '', rated_power: '' },
  environment: { protection_class: '', operating_temperature: '' },
  thd: '',
};

export interface RunningExtraction {
  baseUrl: string;
  app: FastifyInstance;
  platform: Platform;
  close(): Promise<void>;
}

/** extraction-api composed as `main.ts` composes it, in this process, listening on a free loopback port. */
export const startExtraction = async (env: Record<string, string>): Promise<RunningExtraction> => {
  const config = loadConfig(env);
  const logger = silentLogger();
  const composed = composeExtraction(config, logger);
  const { platform } = composed;
  const app = buildApp({ config, logger, ...extractionAppDeps(composed) });
  const baseUrl = await listenOnFreePort(app);
  return {
    baseUrl,
    app,
    platform,
    close: async () => {
      await app.close();
      await platform.close();
    },
  };
};

export const submitTask = async (
  baseUrl: string,
  name: string,
  bytes: Uint8Array | string,
  schema: unknown,
): Promise<string> => {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  form.append('schema', JSON.stringify(schema));
  const response = await fetch(`${baseUrl}/tasks`, { method: 'POST', body: form });
  if (response.status !== 202) throw new Error(`POST /tasks: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { task_id: string }).task_id;
};

export interface TaskView {
  task_id: string;
  status: string;
  attempts: number;
  progress: { stage: string; fields_done?: number; fields_total?: number };
  error: { code: string; message: string; details: string[] } | null;
}

/** Poll `GET /tasks/{id}` until the task is in one of `statuses`. */
export const waitForTask = async (
  baseUrl: string,
  id: string,
  statuses = ['succeeded', 'failed'],
): Promise<TaskView> => {
  for (;;) {
    const task = (await (await fetch(`${baseUrl}/tasks/${id}`)).json()) as TaskView;
    if (statuses.includes(task.status)) return task;
    await new Promise((r) => setTimeout(r, 50));
  }
};
