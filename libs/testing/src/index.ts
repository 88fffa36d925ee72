export { corporaDir, corpusFile, repoRoot, sharedDir, sharedModelDir } from './paths.js';
export { startRedis } from './redis-server.js';
export type { TestRedis } from './redis-server.js';
