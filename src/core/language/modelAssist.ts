// The `model` of a request file with a model list: completion of its value (JSON and YAML; a JSON Schema cannot
// list models that change), a hover with the model's limits and capabilities, and the edit that chooses one.
// The list is the service's merged over the built-in table (core/models/catalog.ts), or the table alone.
import { capabilityLines, ModelCatalog, type CatalogEntry } from '../models/catalog';
import type { ModelInfo } from '../models/table';
import type { Parsed } from '../request/parse';
import type { FixData, Format } from '../request/types';
import { markdownCode, markdownText, thousands } from '../text';
import type { CompletionData, HoverData } from './types';

/** The model list in use, and where it comes from. */
export interface LoadedModels {
  /** the service's list over the built-in table; undefined: the built-in table alone */
  catalog?: ModelCatalog;
  /**
   * `service`: fetched now; `kept`: kept from an earlier fetch (fresh, or stale while the service is unreachable);
   * `file`: a list saved with `promptwright models --format json`; `builtin`: the table alone
   */
  source: 'service' | 'kept' | 'file' | 'builtin';
  fetchedAt?: number;
  /** the saved list's path (`file`) */
  file?: string;
  /** why the service's list is not what is used (no address, no key, the service's answer) */
  problem?: string;
}

/** Where the `model` value is (or is being typed), as offsets, and how it is written there. */
export interface ModelValueAt {
  start: number;
  end: number;
  /** the quote a string value is written with in the text ('' for a YAML plain scalar or no value yet) */
  quote: string;
  /** the model id the file holds now */
  id?: string;
}

/**
 * The top-level `model` value at `offset`, or where one is being typed after `"model":` / `model:`. `parsed`: the
 * file's parse, when there is one (it places a value written over several lines, or in flow style).
 */
export function modelValueAt(
  text: string,
  offset: number,
  format: Format,
  parsed: Pick<Parsed, 'value' | 'locate'> | undefined,
): ModelValueAt | undefined {
  const body = parsed?.value;
  const id = body && typeof body === 'object' ? (body as { model?: unknown }).model : undefined;
  const span = parsed?.locate(['model']);
  if (span && offset >= span.start && offset <= span.end) {
    const first = text[span.start];
    const quote = first === '"' || first === "'" ? first : '';
    return { start: span.start, end: span.end, quote, ...(typeof id === 'string' ? { id } : {}) };
  }
  // no value yet, or one the parser could not place: what follows the key on this line
  const lineStart = offset > 0 ? text.lastIndexOf('\n', offset - 1) + 1 : 0;
  let lineEnd = text.indexOf('\n', offset);
  if (lineEnd < 0) lineEnd = text.length;
  if (text[lineEnd - 1] === '\r') lineEnd--;
  const before = text.slice(lineStart, offset);
  const typed =
    format === 'json'
      ? /^(\s*\{?\s*"model"\s*:\s*)("?[^"\s,}]*)$/.exec(before)
      : /^(model\s*:\s*)(["']?[^\s"'#]*)$/.exec(before);
  if (!typed) return undefined;
  const rest = /^[^\s,}"'#]*["']?/.exec(text.slice(offset, Math.max(offset, lineEnd)))?.[0] ?? '';
  const written = typed[2]!;
  const quote = written.startsWith('"') || written.startsWith("'") ? written[0]! : '';
  return { start: lineStart + typed[1]!.length, end: offset + rest.length, quote };
}

/** Each model of the list as a completion of the value at `at`, in the list's order (the service's: newest first). */
export function modelCompletions(
  at: ModelValueAt,
  entries: readonly CatalogEntry[],
  loaded: LoadedModels,
  format: Format,
): CompletionData[] {
  return entries.map((e, i) => {
    const description = e.info.displayName ?? (e.aliasOf ? `alias of ${e.aliasOf}` : undefined);
    return {
      label: e.id,
      kind: 'value' as const,
      ...(description ? { description } : {}),
      detail: modelLimits(e.info),
      documentation: describeModel(e.id, e.info, loaded, e.aliasOf),
      insertText: format === 'json' ? JSON.stringify(e.id) : e.id,
      start: at.start,
      end: at.end,
      filterText: `${at.quote}${e.id}`,
      sortText: String(i).padStart(4, '0'),
    };
  });
}

/** The hover on a `model` value: the model's facts, or that neither list knows it. */
export function modelHover(at: ModelValueAt, loaded: LoadedModels): HoverData | undefined {
  if (!at.id || at.start === at.end) return undefined;
  const found = (loaded.catalog ?? new ModelCatalog([])).lookup(at.id);
  const markdown = found.info
    ? describeModel(at.id, found.info, loaded, found.info.resolved)
    : `${markdownCode(at.id)} is in neither the service's model list nor the built-in table.\n\n` +
      `*${markdownText(modelsSource(loaded))}*`;
  return { markdown, start: at.start, end: at.end };
}

/** The fix that writes `id` as the request's model: replacing the one there, or adding the field. */
export function chooseModelFix(current: unknown, id: string): Exclude<FixData, { kind: 'add-beta' }> {
  return current === undefined
    ? { kind: 'insert-property', title: 'Choose model', path: [], key: 'model', value: id }
    : { kind: 'replace-value', title: 'Choose model', path: ['model'], value: id };
}

/** "1M context · max_tokens up to 128,000" */
export function modelLimits(info: ModelInfo): string {
  const max =
    info.maxOutputTokens !== undefined
      ? `max_tokens up to ${thousands(info.maxOutputTokens)}`
      : 'max_tokens: no limit known';
  return `${thousands(info.contextWindow)} context · ${max}`;
}

/** Where the facts come from, in a sentence. */
export function modelsSource(loaded: LoadedModels): string {
  // a date and time, once a hover: not a number (thousands() is for those)
  // eslint-disable-next-line no-restricted-syntax
  const when = loaded.fetchedAt ? new Date(loaded.fetchedAt).toLocaleString('en-US') : '';
  if (loaded.source === 'service') return `From the service's model list, fetched ${when}.`;
  if (loaded.source === 'file') return `From the saved model list ${loaded.file ?? ''}.`.replace(' .', '.');
  if (loaded.source === 'kept')
    return loaded.problem
      ? `From the service's model list kept from ${when}: the service cannot be reached (${loaded.problem}).`
      : `From the service's model list, kept from ${when}.`;
  return `From the built-in table${loaded.problem ? ` (no model list from the service: ${loaded.problem})` : ''}.`;
}

/**
 * A model in Markdown: its name, limits and capabilities, and where the facts come from. The id comes from the file
 * or the service, the name, dates and capabilities from the service: each is set in as code or text.
 */
function describeModel(id: string, info: ModelInfo, loaded: LoadedModels, aliasOf?: string): string {
  const title = info.displayName ? `**${markdownText(info.displayName)}** ${markdownCode(id)}` : markdownCode(id);
  const alias = aliasOf ? ` — alias of ${markdownCode(aliasOf)}` : '';
  const listed = !!info.service;
  const status =
    info.status === 'retired'
      ? '\n\n$(error) Retired: requests to it fail.'
      : info.status === 'deprecated'
        ? `\n\n$(warning) Deprecated${info.retires ? `; retirement scheduled for ${markdownText(info.retires)}` : ''}.`
        : '';
  const caps = capabilityLines(info)
    .map(l => `- ${markdownText(l)}`)
    .join('\n');
  const from =
    listed || loaded.source === 'builtin'
      ? modelsSource(loaded)
      : 'From the built-in table: the service does not list it.';
  return [
    `${title}${alias}${status}`,
    `Context window: **${thousands(info.contextWindow)}** tokens · ${modelLimits(info).split(' · ')[1]}`,
    caps,
    `*${markdownText(from)}*`,
  ].join('\n\n');
}
