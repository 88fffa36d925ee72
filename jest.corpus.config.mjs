// SPDX-License-Identifier: AGPL-3.0-or-later
// The corpus tier (`npm run test:corpus`): only `*.corpus.spec.ts`, the tests that read ../shared (see jest.config.mjs).
import { jestConfig } from './jest.config.mjs';

export default jestConfig('corpus');
