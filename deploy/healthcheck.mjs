// SPDX-License-Identifier: AGPL-3.0-or-later
/* global fetch, AbortSignal */
// The image's HEALTHCHECK (and compose's): GET http://127.0.0.1:$LECTERN_HEALTH_PORT/health must answer 200 within
// 4 s. Node itself, so the image needs no curl. /health is never authenticated.
const port = Number(process.env.LECTERN_HEALTH_PORT ?? '3002');
try {
  const response = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(4000) });
  process.exit(response.status === 200 ? 0 : 1);
} catch {
  process.exit(1);
}
