import { runAdmin } from './admin';
import { runBatch } from './batch';
import { runCases } from './cases';
import { runCheck } from './check';
import { runCompliance } from './compliance';
import { runCount } from './count';
import { runImprove } from './improve';
import { withoutKeys } from './env';
import type { CliIo } from './io';
import { runModels } from './models';
import { runRun } from './run';
import { runSchema } from './schema';
import { runTest } from './test';

export type { CliIo } from './io';

export const USAGE = `usage: promptwright <command> [options]

commands:
  check <files or globs...> [--format text|json] [--endpoint messages|count_tokens] [--models FILE]
                   validate request files; exit 1 when any has an error (or could not be checked).
                   --endpoint: check bodies as that endpoint takes them (default: count_tokens for
                   *.count.json, *.count.yaml, *.count.yml; messages for every other file).
                   --models: check against a saved model list (\`promptwright models --format json\`)
                   rather than the built-in table alone; offline
  count FILE... [--budget N] [--format text|json] [--cache] [--prices FILE]
                   print input token counts (POST /v1/messages/count_tokens) of request files and of
                   case files (each case, its values filled in); only what that endpoint takes is
                   checked first (no max_tokens needed). --budget N: exit 1 when any count is over N.
                   json: each count's input_cost_usd (null for a model with no price).
                   --cache: each file's cache breakpoints, the prefix each caches (counted), its ttl, and
                   whether it reaches the model's minimum cacheable length
  count [FILE...] --base REF [--changed] [--format text|json|markdown] [--max-increase N|P%]
                   each count beside the same file's at git revision REF (HEAD, origin/main, a sha).
                   --changed: every request, count and case file that differs from REF (with FILE, only
                   those among them). --max-increase: exit 1 when a count that existed at REF grew by
                   more than N tokens or P percent. --format markdown: a pull-request comment
  run FILE [--force] [--prices FILE]
                   stream the reply to stdout (Ctrl-C cancels); usage, cost and stop reason at the end.
                   A file with errors is not sent unless --force is given (the service decides)
  test FILE... [--format text|json|junit] [--concurrency N] [--model M]... [--repeat N] [--min-pass K]
               [--prices FILE] [--no-cache]
                   run case files (*.cases.yaml, *.cases.json): each case on each model, judged by its
                   assertions (rubric: by the judge model); exit 0 all pass, 1 any fails or a request
                   fails, 2 a usage error or a file with errors (nothing sent). --model replaces the
                   models of the case files. --repeat N samples per cell, --min-pass K of them must pass
                   (default: all); a cell with some passing and some not is flaky. --no-cache asks the
                   judge again instead of reusing kept verdicts. Requests are paced by the rate-limit
                   headers (slower before the limit, not after a storm of 429s)
  test FILE... --batch [--no-wait] [options as above]
                   the same cells as Message Batches, every token at half the price, within 24 hours:
                   submitted once, waited for (progress on stderr), then printed as test prints them,
                   each with its batch; running it again resumes it (nothing is sent twice). Ctrl-C
                   leaves the batch running (exit 130); --no-wait submits, prints the batch ids, exits 0
  test [FILE...] --base REF [--changed] [--format text|json|junit|markdown]
                   every cell on the working copy and on the files at REF too: what the change did to
                   each (same, fixed, broke, new, removed; fewer samples passing is broke), with a word
                   diff of replies that differ.
                   --changed: the case files that differ from REF, or whose request file does
  cases generate REQUEST [--count N] [--model M] [--rubrics] [--out FILE | --append FILE] [--prices FILE]
                   N test cases (default 5) for the request's {{placeholders}}, written by a model (default:
                   the request's own): typical, edge, adversarial, other languages; --rubrics gives each one
                   or two rubric assertions. A case file to stdout, a new FILE, or the end of an existing
                   one's cases; exit 1 (nothing written) when the answer is not the JSON asked for
  improve REQUEST [--goal TEXT] [--model M] [--out FILE] [--prices FILE]
                   the system prompt (and the user turns that are templates) rewritten by a model toward
                   the goal, every {{placeholder}} and every other field kept: the request to --out or
                   stdout, what changed and why to stderr
  models [ID] [--format text|json]
                   the service's models (every page), or one by id or alias; exit 1 for an unknown id
  batch list [--all] | status ID | cancel ID --yes | collect ID [--format …]
                   the batches test --batch submitted from here (--all: the service's, a page at a time);
                   collect waits for one and prints its cells; \`promptwright batch --help\`
  admin …          the administration interface (Admin key): organization, workspaces, users, invites;
                   \`promptwright admin --help\` lists the commands
  schema [--endpoint messages|count_tokens] [--cases]
                   print the JSON Schema of request files (count_tokens: what that endpoint takes, no
                   max_tokens; --cases: case files), for YAML and JSON language servers and "$schema"
  lsp --stdio      the language server for any editor (diagnostics as check gives them, completion, hover,
                   quick fixes, token and cache lenses), over stdin and stdout; docs/editors.md
  compliance …     the compliance interface (Compliance Access Key): the Activity Feed (as JSON, JSON Lines
                   or CSV), organizations, chats, project attachments, deletes;
                   \`promptwright compliance --help\` lists the commands
  --version        print the version

environment:
  PROMPTWRIGHT_BASE_URL  the service address (https://…, without /v1)
  PROMPTWRIGHT_API_KEY   API key (count, run, test, models, cases generate, improve)
  PROMPTWRIGHT_ADMIN_KEY Admin API key (admin commands; compliance activities when no compliance key is set)
  PROMPTWRIGHT_COMPLIANCE_KEY  Compliance Access Key (compliance commands)
  PROMPTWRIGHT_COMPLIANCE_RATE compliance requests per window, LIMIT/WINDOW_MS (default 600/60000; a testing knob)
  PROMPTWRIGHT_BETAS     comma-separated vendor-beta values (some rules depend on them)
  PROMPTWRIGHT_MODELS    a saved model list for check, as --models FILE
  PROMPTWRIGHT_MAX_RETRIES  retries after a failed attempt (default 2)
  PROMPTWRIGHT_JUDGE_MODEL  the judge of rubric assertions when a case file names none
  PROMPTWRIGHT_CACHE_DIR    what outlives a run: judges' verdicts (verdicts/) and submitted batches (batches/)
                            (default: the user's cache folder)
  PROMPTWRIGHT_BATCH_POLL_MS  a batch's first and longest poll waits, FIRST[,MAX] (default 5000,60000; a
                            testing knob)
  PROMPTWRIGHT_DEBUG     set to log each request to stderr (keys are never logged)
`;

declare const PROMPTWRIGHT_VERSION: string | undefined;

/** The CLI entry; returns the process exit code. */
export async function runCli(argv: string[], given: CliIo): Promise<number> {
  // no key the environment holds is ever printed, whatever a service echoes back
  const io = withoutKeys(given);
  const [cmd, ...rest] = argv;
  if (cmd === 'check') return runCheck(rest, io);
  if (cmd === 'count') return runCount(rest, io);
  if (cmd === 'run') return runRun(rest, io);
  if (cmd === 'test') return runTest(rest, io);
  if (cmd === 'models') return runModels(rest, io);
  if (cmd === 'cases') return runCases(rest, io);
  if (cmd === 'improve') return runImprove(rest, io);
  if (cmd === 'admin') return runAdmin(rest, io);
  if (cmd === 'batch') return runBatch(rest, io);
  if (cmd === 'compliance') return runCompliance(rest, io);
  if (cmd === 'schema') return runSchema(rest, io);
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
