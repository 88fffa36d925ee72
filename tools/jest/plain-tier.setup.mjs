// SPDX-License-Identifier: AGPL-3.0-or-later
// setupFiles of the plain tier (`npm run jest`): marks the run so that libs/testing's paths refuse to read
// ../shared (a plain-tier test must pass on a clone without it).
process.env.LECTERN_TEST_TIER = 'plain';
// No test reaches the model hub: a fresh DATA_DIR with EMBEDDING_MODEL=auto would otherwise try to fetch
// potion-base-2M at its first embedding (the fresh-install tests point HF_ENDPOINT at a loopback fake and set
// EMBEDDING_AUTO_FETCH themselves). Spawned services inherit it.
process.env.EMBEDDING_AUTO_FETCH ??= '0';
