// SPDX-License-Identifier: AGPL-3.0-or-later
// Preloaded into a service by call-cost.bench.ts (`NODE_OPTIONS=--import <this>`; `--cpu-prof` is not allowed in
// NODE_OPTIONS): the first SIGUSR2 starts V8's sampling profiler, the second writes the profile to
// $LECTERN_CPU_PROFILE, so the profile covers exactly the measured calls.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

const session = new Session();
session.connect();
let running = false;
process.on('SIGUSR2', () => {
  if (!running) {
    running = true;
    session.post('Profiler.enable', () =>
      session.post('Profiler.setSamplingInterval', { interval: 250 }, () => session.post('Profiler.start')),
    );
    return;
  }
  running = false;
  session.post('Profiler.stop', (err, result) => {
    if (!err) writeFileSync(process.env.LECTERN_CPU_PROFILE ?? 'server.cpuprofile', JSON.stringify(result.profile));
  });
});
