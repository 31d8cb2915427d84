// Exit codes, the same for every command that talks to the service: 0 done; 1 the service answered
// with an error (stderr: status, error.type, message, request-id); 2 a usage error or an input refused
// before any request was sent; 130 cancelled with Ctrl-C.
import { AbortedError, ConfigError, InputError, StreamError } from '../api/errors';
import { UsageError } from './args';
import { describeForCli } from './env';
import type { CliIo } from './io';

export const EXIT = { ok: 0, service: 1, refused: 2, cancelled: 130 } as const;

/** Runs a command and turns what it throws into a message on stderr and the exit code. */
export async function guarded(io: CliIo, name: string, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (e) {
    if (cancelled(e, io)) {
      io.stderr.write(`promptwright ${name}: Cancelled.\n`);
      return EXIT.cancelled;
    }
    io.stderr.write(`promptwright ${name}: ${describeForCli(e)}\n`);
    if (e instanceof UsageError || e instanceof InputError || e instanceof ConfigError) return EXIT.refused;
    return EXIT.service;
  }
}

/** Whether a failure is the cancel (Ctrl-C aborts the io's signal): whatever it threw, the answer is 130. */
export function cancelled(e: unknown, io: CliIo): boolean {
  return e instanceof AbortedError || (e instanceof StreamError && e.type === 'aborted') || !!io.signal?.aborted;
}

/**
 * A destructive verb goes ahead with `--yes`; without it a person at a terminal is asked, and a script
 * (stdin not a terminal) is refused, before anything is sent.
 */
export async function confirmed(io: CliIo, yes: boolean, question: string): Promise<boolean> {
  if (yes) return true;
  if (!io.interactive || !io.confirm) {
    throw new UsageError(`${question.replace(/\?$/, '')}: refused without --yes (stdin is not a terminal)`);
  }
  return io.confirm(`${question} [y/N] `);
}
