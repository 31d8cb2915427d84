import { runCli } from './core/cli/main';

runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env })
  .then(code => { process.exitCode = code; })
  .catch((e: unknown) => { process.stderr.write(`promptwright: ${e instanceof Error ? e.message : String(e)}\n`); process.exitCode = 2; });
