// SPDX-License-Identifier: AGPL-3.0-or-later
// The test environment of every jest project: jest's own Node environment, plus, when LECTERN_TEST_CPU_LOG names a
// file, one JSON line per test file with the CPU time it cost — the jest worker's own user + system time and that of
// every child process it started and reaped (spawned services, redis-servers, the `lectern` binary, and their own
// children), from /proc/self/stat. A jest worker runs one test file at a time and `teardown` comes after the file's
// last afterAll, so the difference is that file's alone. Used to find where the suite's CPU goes
// (docs/benchmarks/test-suite.md); without the variable it does nothing more than jest's environment.
import { appendFileSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { TestEnvironment } from 'jest-environment-node';

/** Seconds of CPU of this process and its reaped descendants (utime, stime, cutime, cstime; 100 ticks a second). */
const cpuSeconds = () => {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // fields after the command name, which is in parentheses and may hold spaces
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = [11, 12, 13, 14].map((i) => Number(fields[i]));
  return { own: (ticks[0] + ticks[1]) / 100, children: (ticks[2] + ticks[3]) / 100 };
};

export default class CpuLoggingEnvironment extends TestEnvironment {
  /** @param {import('@jest/environment').JestEnvironmentConfig} config @param {import('@jest/environment').EnvironmentContext} context */
  constructor(config, context) {
    super(config, context);
    this.logFile = process.env['LECTERN_TEST_CPU_LOG'];
    this.testPath = relative(process.cwd(), context.testPath);
  }

  async setup() {
    await super.setup();
    if (this.logFile) {
      this.started = cpuSeconds();
      this.startedAt = Date.now();
    }
  }

  /**
   * jest-circus's events: `run_start` comes once the test file and every module it imports statically have been
   * evaluated and its describe blocks collected — the CPU until then is what loading the file cost.
   * @param {{ name: string }} event
   */
  handleTestEvent(event) {
    if (event.name === 'run_start' && this.started && !this.loaded) this.loaded = cpuSeconds().own;
  }

  async teardown() {
    await super.teardown();
    if (!this.logFile || !this.started) return;
    const end = cpuSeconds();
    const line = {
      file: this.testPath,
      cpu_s: +(end.own - this.started.own + end.children - this.started.children).toFixed(2),
      own_cpu_s: +(end.own - this.started.own).toFixed(2),
      children_cpu_s: +(end.children - this.started.children).toFixed(2),
      wall_s: +((Date.now() - this.startedAt) / 1000).toFixed(2),
      // the worker's CPU until the first test could start: evaluating the file's module graph (round 5)
      load_cpu_s: this.loaded === undefined ? null : +(this.loaded - this.started.own).toFixed(2),
      // the worker's heap after the file (it grows file after file) and which worker ran it (a new pid: replaced)
      heap_mb: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
      worker_pid: process.pid,
    };
    appendFileSync(this.logFile, `${JSON.stringify(line)}\n`);
  }
}
