import { runCheck } from './check';

export interface CliIo {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
  env: Record<string, string | undefined>;
}

export const USAGE = `usage: promptwright <command> [options]

commands:
  check <files or globs...> [--format text|json]
                   validate request files; exit 1 when any has an error
  --version        print the version

environment:
  PROMPTWRIGHT_BETAS     comma-separated vendor-beta values (some rules depend on them)
`;

declare const PROMPTWRIGHT_VERSION: string | undefined;

/** The CLI entry; returns the process exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [cmd, ...rest] = argv;
  if (cmd === 'check') return runCheck(rest, io);
  if (cmd === '--version' || cmd === '-v') {
    io.stdout.write(`${typeof PROMPTWRIGHT_VERSION === 'string' ? PROMPTWRIGHT_VERSION : 'dev'}\n`);
    return 0;
  }
  if (!cmd || cmd === '--help' || cmd === '-h' || cmd === 'help') {
    io.stdout.write(USAGE);
    return cmd ? 0 : 2;
  }
  io.stderr.write(`promptwright: unknown command '${cmd}'\n${USAGE}`);
  return 2;
}
