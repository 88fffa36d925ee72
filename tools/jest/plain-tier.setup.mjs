// setupFiles of the plain tier (`npm run jest`): marks the run so that libs/testing's paths refuse to read
// ../shared (a plain-tier test must pass on a clone without it).
process.env.LECTERN_TEST_TIER = 'plain';
