// Exit codes, the same for every command that talks to the service: 0 done; 1 the service answered
// with an error (stderr: status, error.type, message, request-id); 2 a usage error or an input refused
// before any request was sent; 130 cancelled with Ctrl-C. What each means for a command is declared with it
// (`Command.exits`), and `--help`, README and docs/cli.md say the same (test/unit/cli/docs.test.ts).
import { AbortedError, ConfigError, InputError, StreamError } from '../core/api/errors';
import { UsageError } from './args';
import { describeForCli } from '../core/environment';
import type { CliIo } from './io';

export const EXIT = { ok: 0, service: 1, refused: 2, cancelled: 130 } as const;

/** What each exit code means, for every command: the table of docs/cli.md and the line of README and `--help`. */
export const EXIT_MEANINGS: Readonly<Record<number, string>> = {
  0: 'done: every file clean, every count within its limit, every cell passed',
  1:
    'done, and found something: a file with errors (check), a count over its limit, a cell that did not pass, a ' +
    'request the service refused',
  2:
    'nothing done: a usage error, or an input refused before any request (a file with errors for count, run and ' +
    'test; no key or address; no --yes in a script)',
  130: 'cancelled with Ctrl-C',
};

/** The words every command uses for 130. */
export const CTRL_C = 'Ctrl-C';
/** …and for 2, when it refuses nothing more than a usage error, a missing key or address. */
export const REFUSED = 'a usage error, or no key or address (nothing sent)';

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
