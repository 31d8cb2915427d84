// Parses a request file (JSON or YAML, the editor's unsaved text) into a value plus a way to find the
// exact source range of any path in it. JSON takes a fast path (native JSON.parse, ranges found on demand
// by a small scanner, positions.ts) and falls back to jsonc-parser, which reports every syntax error with
// its offset (json.ts); YAML goes through the yaml library with its own guards (yaml.ts).
import { boundPerRule } from '../perRule';
import type { Format } from '../types';
import { parseJson } from './json';
import type { Parsed } from './types';
import { parseYaml } from './yaml';

export { locateJson } from './positions';
export * from './types';

export function parseRequest(text: string, format: Format): Parsed {
  const parsed = format === 'yaml' ? parseYaml(text) : parseJson(text);
  // a file of broken JSON can have a syntax error every few characters: the first of each kind are said
  parsed.problems = boundPerRule(parsed.problems);
  return parsed;
}
