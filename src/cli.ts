import { runCli } from './core/cli/main';

const ctl = new AbortController();
let interrupted = false;
process.on('SIGINT', () => {
  if (interrupted) process.exit(130);
  interrupted = true;
  ctl.abort();
});
runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env, signal: ctl.signal })
  .then(code => {
    process.exitCode = code;
  })
  .catch((e: unknown) => {
    process.stderr.write(`promptwright: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 2;
  });
