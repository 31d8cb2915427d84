import { createInterface } from 'node:readline/promises';
import { runCli } from './core/cli/main';

const ctl = new AbortController();
let interrupted = false;
process.on('SIGINT', () => {
  if (interrupted) process.exit(130);
  interrupted = true;
  ctl.abort();
});
/** A yes/no question on the terminal (destructive verbs without --yes). */
async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  signal: ctl.signal,
  interactive: !!process.stdin.isTTY,
  confirm,
})
  .then(code => {
    process.exitCode = code;
  })
  .catch((e: unknown) => {
    process.stderr.write(`promptwright: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 2;
  });
