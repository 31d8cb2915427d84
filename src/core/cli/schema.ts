// `promptwright schema`: the JSON Schema of request, count_tokens and case files for any tool that reads JSON
// Schema (core/request/toolSchema.ts), on stdout.
import { toolJsonSchema, type SchemaKind } from '../request/toolSchema';
import { one, parseArgs, UsageError } from './args';
import { EXIT } from './guard';
import type { CliIo } from './io';

const SCHEMA_USAGE = `usage: promptwright schema [--endpoint messages|count_tokens] [--cases]
  the JSON Schema of a request file (--endpoint messages, the default), of what count_tokens takes
  (--endpoint count_tokens: no max_tokens), or of a case file (--cases), for a YAML or JSON language server
  ("$schema" in a JSON file, "# yaml-language-server: $schema=" in a YAML one)
`;

export function runSchema(argv: string[], io: CliIo): number {
  if (argv[0] === '--help' || argv[0] === 'help') {
    io.stdout.write(SCHEMA_USAGE);
    return EXIT.ok;
  }
  try {
    const p = parseArgs(argv, ['endpoint'], ['cases']);
    if (p.positionals.length) throw new UsageError(`unexpected ${p.positionals.join(' ')}`);
    if (p.values.has('format')) throw new UsageError('--format is not an option of schema: it prints JSON');
    const endpoint = one(p, 'endpoint') ?? 'messages';
    if (endpoint !== 'messages' && endpoint !== 'count_tokens')
      throw new UsageError(`--endpoint must be messages or count_tokens, got "${endpoint}"`);
    if (p.switches.has('cases') && p.values.has('endpoint'))
      throw new UsageError('--cases and --endpoint: a case file is not a request body; give one of them');
    const kind: SchemaKind = p.switches.has('cases') ? 'cases' : endpoint;
    io.stdout.write(`${JSON.stringify(toolJsonSchema(kind), null, 2)}\n`);
    return EXIT.ok;
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr.write(`promptwright schema: ${e.message}\n${SCHEMA_USAGE}`);
    return EXIT.refused;
  }
}
