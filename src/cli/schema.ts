// `promptwright schema`: the JSON Schema of request, count_tokens and case files for any tool that reads JSON
// Schema (core/language/toolSchema.ts), on stdout.
import { toolJsonSchema, type SchemaKind } from '../core/language/toolSchema';
import { one, parseArgs, UsageError, type Command } from './args';
import { EXIT } from './guard';
import type { CliIo } from './io';

export const SCHEMA: Command = {
  name: 'schema',
  summary:
    'Prints the JSON Schema of a request file, of what count_tokens takes, or of a case file, for a YAML or JSON ' +
    'language server ("$schema" in a JSON file, "# yaml-language-server: $schema=" in a YAML one).',
  options: [
    {
      name: 'endpoint',
      value: 'ENDPOINT',
      choices: ['messages', 'count_tokens'],
      help: 'a request body for this endpoint (default messages; count_tokens: no max_tokens)',
    },
    { name: 'cases', help: 'the schema of a case file' },
  ],
  exits: { 0: 'printed', 2: 'a usage error' },
};

export function runSchema(argv: string[], io: CliIo): Promise<number> {
  return Promise.resolve(schema(argv, io));
}

function schema(argv: string[], io: CliIo): number {
  try {
    const p = parseArgs(argv, SCHEMA);
    if (p.positionals.length) throw new UsageError(`unexpected ${p.positionals.join(' ')}`);
    const endpoint = (one(p, 'endpoint') ?? 'messages') as 'messages' | 'count_tokens';
    if (p.switches.has('cases') && p.values.has('endpoint'))
      throw new UsageError('--cases and --endpoint: a case file is not a request body; give one of them');
    const kind: SchemaKind = p.switches.has('cases') ? 'cases' : endpoint;
    io.stdout.write(`${JSON.stringify(toolJsonSchema(kind), null, 2)}\n`);
    return EXIT.ok;
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr.write(`promptwright schema: ${e.message}\n`);
    return EXIT.refused;
  }
}
