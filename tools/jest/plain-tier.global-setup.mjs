// SPDX-License-Identifier: AGPL-3.0-or-later
// globalSetup of the plain tier (`npm run jest`): the services compiled once for the tests that spawn them
// (service-bundles.mjs), before any worker starts, so that parallel suites never build them at the same time.
import { buildServiceBundles } from './service-bundles.mjs';

export default async function plainTierSetup() {
  await buildServiceBundles();
}
