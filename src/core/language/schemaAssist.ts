// Completion and hover from the zod schema of the file's kind (a request, a count_tokens body, a case file), as
// completion items and hovers both front ends show, in JSON (jsonAssist.ts finds what the cursor is on) and in
// YAML (yamlAssist.ts). One engine for VS Code and the language server.
import { CaseFileSchema } from '../cases/caseFile';
import { CountTokensBody, RequestBody } from '../request/schema';
import type { Schema } from '../request/schemaPath';
import type { Format } from '../request/types';
import type { Endpoint } from '../request/validate';
import { jsonCompletions, jsonHover } from './jsonAssist';
import type { CompletionData, HoverData } from './types';
import { requestValueHints, yamlCompletions, yamlHover, type AssistCompletions, type ValueHints } from './yamlAssist';

/** What a file of ours holds: a body for an endpoint, or a case file. */
export type FileKind = Endpoint | 'cases';

function schemaOf(kind: FileKind): Schema {
  return kind === 'cases' ? CaseFileSchema : kind === 'count_tokens' ? CountTokensBody : RequestBody;
}

/** What yamlAssist.ts or jsonAssist.ts found, as completion items. */
function completionsOf(found: AssistCompletions | undefined, format: Format): CompletionData[] | undefined {
  return found?.items.map((it, i) => ({
    label: it.label,
    kind: it.kind,
    insertText: it.insertText,
    ...(it.snippet ? { snippet: true } : {}),
    start: found.start,
    end: found.end,
    // a JSON key or string is replaced with its quotes: the editor filters on what is written there
    ...(format === 'json' ? { filterText: it.kind === 'field' ? JSON.stringify(it.label) : it.insertText } : {}),
    // the YAML text is indented for its place already
    ...(format === 'yaml' ? { keepWhitespace: true } : {}),
    // required fields first, then the schema's own order
    sortText: `${it.required ? 0 : 1}${String(i).padStart(3, '0')}`,
    ...(it.required ? { detail: 'required' } : {}),
    ...(it.documentation ? { documentation: it.documentation } : {}),
    ...(it.retrigger ? { retrigger: true } : {}),
  }));
}

/**
 * The fields and values that fit at `offset` of a file of that kind and format, or undefined where there are none.
 * `hints`: values a field takes beyond what the schema names (by default the built-in model ids for `model`).
 */
export function schemaCompletions(
  text: string,
  offset: number,
  kind: FileKind,
  format: Format,
  hints: ValueHints = requestValueHints,
): CompletionData[] | undefined {
  const find = format === 'yaml' ? yamlCompletions : jsonCompletions;
  return completionsOf(find(text, offset, schemaOf(kind), hints), format);
}

/** The description of the field whose key or value is at `offset` of a file of that kind and format. */
export function schemaHover(text: string, offset: number, kind: FileKind, format: Format): HoverData | undefined {
  return (format === 'yaml' ? yamlHover : jsonHover)(text, offset, schemaOf(kind));
}
