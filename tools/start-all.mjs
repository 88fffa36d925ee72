#!/usr/bin/env node
// `npm start`: every Lectern service, embedded defaults, one terminal. Each service is its own process
// (as in compose/Kubernetes) and inherits this environment, so any variable set for `npm start` is honoured.
// SIGTERM/SIGINT are forwarded; each service shuts down in order; this launcher exits when all have.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';

const services = [
  { name: 'converter', entry: 'apps/converter/src/main.ts' },
  { name: 'document-store-mcp', entry: 'apps/document-store-mcp/src/main.ts' },
  { name: 'policy-kb-mcp', entry: 'apps/policy-kb-mcp/src/main.ts' },
  { name: 'extraction-api', entry: 'apps/extraction-api/src/main.ts' },
];

mkdirSync(process.env.DATA_DIR || './data', { recursive: true });

let stopping = false;
let exitCode = 0;
const children = services.map(({ name, entry }) => {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], { stdio: 'inherit', env: process.env });
  child.on('exit', (code, signal) => {
    if (!stopping) {
      process.stderr.write(`lectern: ${name} exited (${signal ?? code}); stopping the others\n`);
      exitCode = code || 1;
      stop('SIGTERM');
    }
    if (children.every((c) => c.exitCode !== null || c.signalCode !== null)) process.exit(exitCode);
  });
  return child;
});

function stop(signal) {
  stopping = true;
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill(signal);
}
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGTERM'));
