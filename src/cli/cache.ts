// `promptwright cache clear`: forgets what the CLI keeps between runs in PROMPTWRIGHT_CACHE_DIR: the judges'
// verdicts (verdicts/: the next run asks the judge again) and the batches already collected (batches/). A batch not
// yet collected is kept, and said: its results are still to be read, and forgetting it would lose track of a
// batch that was paid for.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { count } from '../core/text';
import { parseArgs, type Command, type Group } from './args';
import { groupCommand, notConfirmed, positionals } from './common';
import { cacheDir } from './env';
import { confirmed, EXIT, guarded } from './guard';
import type { CliIo } from './io';
import { batchStoreFromEnv } from './testBatch';

const CLEAR: Command = {
  name: 'cache clear',
  summary:
    "Forgets what the CLI keeps between runs (PROMPTWRIGHT_CACHE_DIR): the judges' verdicts, so the next run asks " +
    'the judge again, and the batches already collected. A batch not yet collected is kept (collect or cancel it ' +
    'first).',
  options: [{ name: 'yes', help: 'clear without asking (a script without it is refused)' }],
  exits: {
    0: 'cleared',
    2: 'a usage error, no --yes in a script, or an answer other than yes (nothing removed)',
  },
};

export const CACHE: Group = {
  name: 'cache',
  summary: "What the CLI keeps between runs: the judges' verdicts and the batches it submitted.",
  commands: [CLEAR],
};

export function runCache(argv: string[], io: CliIo): Promise<number> {
  const picked = groupCommand(CACHE, argv, io);
  if (typeof picked === 'number') return Promise.resolve(picked);
  return guarded(io, 'cache clear', async () => {
    const p = parseArgs(picked.rest, CLEAR);
    positionals(p, []);
    const dir = cacheDir(io.env);
    if (!(await confirmed(io, p.switches.has('yes'), `Forget the verdicts and collected batches kept in ${dir}?`)))
      return notConfirmed(io);
    const verdicts = path.join(dir, 'verdicts');
    const kept = await filesUnder(verdicts);
    await fs.rm(verdicts, { recursive: true, force: true });
    const store = batchStoreFromEnv(io.env);
    const batches = await store.batches();
    const pending = batches.filter(b => !b.collectedAt);
    for (const b of batches) if (b.collectedAt) await store.forget(b.id);
    const open = new Set(pending.map(b => b.id));
    for (const r of await store.runs()) if (!r.batchIds.some(id => open.has(id))) await store.forgetRun(r.key);
    const collected = count(batches.length - pending.length, 'collected batch', 'collected batches');
    const removed = `${count(kept, 'verdict')} and ${collected}`;
    io.stdout.write(`removed ${removed} from ${dir}\n`);
    if (pending.length)
      io.stderr.write(
        `kept ${count(pending.length, 'batch', 'batches')} not yet collected (${pending.map(b => b.id).join(', ')}): ` +
          '`promptwright batch collect ID` reads it, `promptwright batch cancel ID --yes` stops it\n',
      );
    return EXIT.ok;
  });
}

/** How many files a folder holds, at any depth (0 when it is not there). */
async function filesUnder(dir: string): Promise<number> {
  try {
    const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
    return entries.filter(e => e.isFile()).length;
  } catch {
    return 0;
  }
}
