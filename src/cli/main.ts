import { ADMIN, runAdmin } from './admin';
import { closest, usageOf, wantsHelp, wrap, type Command, type Group } from './args';
import { BATCH, runBatch } from './batch';
import { CACHE, runCache } from './cache';
import { CASES, runCases } from './cases';
import { CHECK, runCheck } from './check';
import { COMPLIANCE, runCompliance } from './compliance';
import { COUNT, runCount } from './count';
import { withoutKeys } from './env';
import { EXIT, EXIT_MEANINGS } from './guard';
import { IMPROVE, runImprove } from './improve';
import { terminalSafe, type CliIo } from './io';
import { LSP } from './lsp';
import { MCP, runMcp } from './mcp';
import { MODELS, runModels } from './models';
import { RUN, runRun } from './run';
import { runSchema, SCHEMA } from './schema';
import { runTest, TEST } from './test';

export type { CliIo } from './io';

/** Every command, in the order `--help` lists them; `lsp` is started by src/cli.ts (a bundle of its own). */
export const COMMANDS: readonly { spec: Command | Group; run?: (argv: string[], io: CliIo) => Promise<number> }[] = [
  { spec: CHECK, run: runCheck },
  { spec: COUNT, run: runCount },
  { spec: RUN, run: runRun },
  { spec: TEST, run: runTest },
  { spec: BATCH, run: runBatch },
  { spec: CACHE, run: runCache },
  { spec: MODELS, run: runModels },
  { spec: CASES, run: runCases },
  { spec: IMPROVE, run: runImprove },
  { spec: MCP, run: runMcp },
  { spec: SCHEMA, run: runSchema },
  { spec: LSP },
  { spec: ADMIN, run: runAdmin },
  { spec: COMPLIANCE, run: runCompliance },
];

const isGroup = (s: Command | Group): s is Group => 'commands' in s;

const ENVIRONMENT = `environment:
  PROMPTWRIGHT_BASE_URL  the service address (https://…, without /v1)
  PROMPTWRIGHT_API_KEY   API key (count, run, test, batch, models, cases generate, improve)
  PROMPTWRIGHT_ADMIN_KEY Admin API key (admin commands; compliance activities when no compliance key is set)
  PROMPTWRIGHT_COMPLIANCE_KEY  Compliance Access Key (compliance commands)
  PROMPTWRIGHT_COMPLIANCE_RATE compliance requests per window, LIMIT/WINDOW_MS (default 600/60000; a testing knob)
  PROMPTWRIGHT_BETAS     comma-separated vendor-beta values (some rules depend on them)
  PROMPTWRIGHT_MODELS    a saved model list for check, as --models FILE
  PROMPTWRIGHT_MAX_RETRIES  retries after a failed attempt (default 2, at most 10)
  PROMPTWRIGHT_JUDGE_MODEL  the judge of rubric assertions when a case file names none
  PROMPTWRIGHT_COAUTHOR_MODEL  the model that answers a case file's simulate: tools (default: the cell's)
  PROMPTWRIGHT_TOOL_TIMEOUT_MS  how long an MCP server may take to start or to answer a call (default 30000)
  PROMPTWRIGHT_CACHE_DIR    what outlives a run: judges' verdicts (verdicts/) and submitted batches (batches/)
                            (default: the user's cache folder; promptwright cache clear empties it)
  PROMPTWRIGHT_BATCH_POLL_MS  a batch's first and longest poll waits, FIRST[,MAX] (default 5000,60000; a
                            testing knob)
  PROMPTWRIGHT_BATCH_STATUS_MS  without a terminal, a batch's status line at least this often (default 30000;
                            a testing knob)
  PROMPTWRIGHT_DEBUG     set to log each request to stderr (keys are never logged)
`;

/** What `promptwright --help` prints: each command and what it does, the environment, the exit codes. */
function mainUsage(): string {
  const rows = COMMANDS.map(({ spec }) => {
    const name = isGroup(spec)
      ? `${spec.name} …`
      : spec.name === 'lsp'
        ? 'lsp --stdio'
        : `${spec.name}${spec.args ? ` ${spec.args}` : ''}`;
    const first = wrap(spec.summary.replace(/\s+/g, ' ').split(/(?<=\.) /)[0]!, 92, 28);
    return name.length > 24 ? `  ${name}\n  ${' '.repeat(24)}  ${first}` : `  ${name.padEnd(24)}  ${first}`;
  });
  return (
    'usage: promptwright <command> [options]\n\n' +
    `commands:\n${rows.join('\n')}\n` +
    `  ${'--version'.padEnd(24)}  print the version\n\n` +
    "promptwright <command> --help prints a command's options; docs/cli.md is the reference.\n\n" +
    ENVIRONMENT +
    `\nexit codes:\n${Object.entries(EXIT_MEANINGS)
      .map(([code, m]) => `  ${code.padEnd(3)}  ${wrap(m, 111, 7)}`)
      .join('\n')}\n`
  );
}

declare const PROMPTWRIGHT_VERSION: string | undefined;

/**
 * The CLI entry; returns the process exit code. Every command writes through `terminalSafe` (no control character
 * from a file or the service reaches the terminal) and `withoutKeys` (no key the environment holds is ever printed,
 * whatever a service echoes back).
 */
export async function runCli(argv: string[], given: CliIo): Promise<number> {
  const io = terminalSafe(withoutKeys(given));
  const [cmd, ...rest] = argv;
  const entry = COMMANDS.find(c => c.spec.name === cmd);
  if (entry?.run) {
    const spec = entry.spec;
    // a group answers --help itself (its usage, or its command's)
    if (!isGroup(spec) && wantsHelp(rest)) {
      io.stdout.write(usageOf(spec));
      return EXIT.ok;
    }
    return entry.run(rest, io);
  }
  if (cmd === '--version' || cmd === '-v') {
    io.stdout.write(`${typeof PROMPTWRIGHT_VERSION === 'string' ? PROMPTWRIGHT_VERSION : 'dev'}\n`);
    return EXIT.ok;
  }
  if (cmd === 'help' && rest[0]) return runCli([rest[0], '--help'], io);
  if (!cmd || cmd === '--help' || cmd === '-h' || cmd === 'help') {
    io.stdout.write(mainUsage());
    return cmd ? EXIT.ok : EXIT.refused;
  }
  if (entry) {
    // lsp: src/cli.ts starts it before this is reached; here only for its usage
    io.stdout.write(usageOf(entry.spec as Command));
    return wantsHelp(rest) ? EXIT.ok : EXIT.refused;
  }
  const near = closest(cmd, [...COMMANDS.map(c => c.spec.name), '--version', '--help']);
  io.stderr.write(
    `promptwright: unknown command '${cmd}'` +
      (near ? `; did you mean '${near}'?\n` : ' (promptwright --help lists the commands)\n'),
  );
  return EXIT.refused;
}
