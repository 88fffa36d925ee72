#!/usr/bin/env node
// The `lectern` bin: runs the TypeScript sources through tsx (the repository runs from source), with the
// repository's tsconfig so `@lectern/*` paths resolve from any working directory.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../../../tsconfig.json', import.meta.url)) });
// A URL string, so the type-checker (checkJs) does not resolve a `.ts` import it cannot take.
await import(new URL('../src/main.ts', import.meta.url).href);
