import { runCli } from './cli.js';

process.exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  stderrIsTTY: process.stderr.isTTY === true,
});
