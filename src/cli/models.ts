// `promptwright models [ID]`: the service's model list (every page), or one model by id or alias (doc3 §9.5),
// with the standard API key. `--format json` prints the service's objects as they came, so the output of
// `promptwright models --format json` saved to a file is a catalog `promptwright check --models FILE` reads.
import { capabilityLines, ModelCatalog } from '../core/models/catalog';
import { ModelsClient } from '../core/models/client';
import type { ServiceModel } from '../core/models/types';
import { parseArgs, UsageError, type Command } from './args';
import { format, TEXT_OR_JSON } from './common';
import { httpFromEnv } from './env';
import { CTRL_C, EXIT, guarded } from './guard';
import type { CliIo } from './io';
import { day, printPages, type Column } from './output';
import { thousands } from '../core/text';

export const MODELS: Command = {
  name: 'models',
  args: '[ID]',
  summary:
    "The service's models, every page, newest first; or one model by id (an alias answers with the model it points " +
    "to). --format json prints the service's objects as they came: saved to a file, a catalog for " +
    '`promptwright check --models FILE`.',
  options: [TEXT_OR_JSON],
  exits: {
    0: 'done',
    1: 'the service answered with an error (an unknown id: 404 not_found_error)',
    2: 'a usage error (more than one ID), or no key or address',
    130: CTRL_C,
  },
};

const tokens = (n: number | null | undefined) => (typeof n === 'number' ? thousands(n) : '');

const COLUMNS: Column<ServiceModel>[] = [
  ['ID', m => m.id],
  ['NAME', m => m.display_name],
  ['CONTEXT', m => tokens(m.max_input_tokens)],
  ['MAX OUTPUT', m => tokens(m.max_tokens)],
  ['CREATED', m => day(m.created_at).slice(0, 10)],
];

/** One model in text: its fields, then one line per capability ("thinking  adaptive, enabled"). */
function modelText(m: ServiceModel): string {
  const info = new ModelCatalog([m]).lookup(m.id).info!;
  const rows: [string, string][] = [
    ['id', m.id],
    ['display_name', m.display_name ?? ''],
    ['created_at', m.created_at ?? ''],
    ['max_input_tokens', tokens(m.max_input_tokens)],
    ['max_tokens', tokens(m.max_tokens)],
    ...capabilityLines(info).map(l => {
      const at = l.indexOf(': ');
      return [l.slice(0, at), l.slice(at + 2)] as [string, string];
    }),
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`.trimEnd()).join('\n') + '\n';
}

export function runModels(argv: string[], io: CliIo): Promise<number> {
  return guarded(io, 'models', async () => {
    const p = parseArgs(argv, MODELS);
    const f = format(p);
    if (p.positionals.length > 1) throw new UsageError(`expected at most one model id, got ${p.positionals.join(' ')}`);
    const client = new ModelsClient(httpFromEnv(io.env));
    const c = io.signal ? { signal: io.signal } : {};
    const id = p.positionals[0];
    if (id !== undefined) {
      const m = await client.get(id, c);
      io.stdout.write(f === 'json' ? `${JSON.stringify(m, null, 2)}\n` : modelText(m));
      return EXIT.ok;
    }
    await printPages(io, f, client.pages({ ...c, pageSize: 1000 }), COLUMNS);
    return EXIT.ok;
  });
}
