// Templates of the elements a request file is made of (a message, a content block, a tool, a system text
// block), offered by completion only where such an element can be inserted: an element position of
// `messages`, of a `content` array, of `tools` or of `system`. Never inside a string, never at a key, and
// never in other JSON or YAML files (the editor asks only for request files). The templates themselves
// are generated from the zod schema (requestTemplates.ts; at build time for the extension).
import { getLocation } from 'jsonc-parser';
import * as YAML from 'yaml';
import type { Format } from './types';

export type Slot = 'message' | 'content' | 'tool' | 'system';

export interface Template {
  /** what is typed to pick it: `pw-text`, `pw-user`, `pw-web_search`, … */
  name: string;
  slot: Slot;
  description: string;
  /** the element, with snippet placeholders (`${1:text}`) in its string values */
  body: Record<string, unknown>;
}

export interface SlotAt {
  slot: Slot;
  /** the text the inserted template replaces: the word typed so far, and in YAML the item's `- ` */
  start: number;
  end: number;
  /** typed before the word and replaced with it (`- ` in YAML), so the editor filters on `- pw-…` */
  lead: string;
  /** JSON: where a comma goes after the element before (it has none yet) */
  commaAt?: number;
  /** JSON: another element follows, so the template ends with a comma */
  commaAfter?: boolean;
}

const WORD = /[\w-]/;
const MARK = '__promptwright_slot__';

/** Where an element can be inserted at `offset`, and which kind; undefined anywhere else. */
export function slotAt(text: string, offset: number, format: Format): SlotAt | undefined {
  return format === 'json' ? jsonSlot(text, offset) : yamlSlot(text, offset);
}

/** The slot an array at `path` holds elements of. */
function slotOf(path: readonly (string | number)[]): Slot | undefined {
  const [top, i, key, j, inner] = path;
  if (path.length === 1 && top === 'messages') return 'message';
  if (path.length === 1 && top === 'tools') return 'tool';
  if (path.length === 1 && top === 'system') return 'system';
  if (top !== 'messages' || typeof i !== 'number' || key !== 'content') return undefined;
  if (path.length === 3) return 'content';
  // a tool_result's own content array
  if (path.length === 5 && typeof j === 'number' && inner === 'content') return 'content';
  return undefined;
}

function jsonSlot(text: string, offset: number): SlotAt | undefined {
  let start = offset;
  while (start > 0 && WORD.test(text[start - 1]!)) start--;
  let end = offset;
  while (end < text.length && WORD.test(text[end]!)) end++;
  const loc = getLocation(text, start);
  if (loc.isAtPropertyKey) return undefined;
  const prev = loc.previousNode;
  if (prev && prev.offset < start && start < prev.offset + prev.length) return undefined; // inside a value
  if (text[start - 1] === '"') return undefined; // an unterminated string
  const path = loc.path;
  if (typeof path[path.length - 1] !== 'number') return undefined;
  const slot = slotOf(path.slice(0, -1));
  if (!slot) return undefined;
  let before = start - 1;
  while (before >= 0 && /\s/.test(text[before]!)) before--;
  let after = end;
  while (after < text.length && /\s/.test(text[after]!)) after++;
  const needsCommaBefore = before >= 0 && !'[,'.includes(text[before]!);
  const followed = after < text.length && !']'.includes(text[after]!) && text[after] !== ',';
  return {
    slot,
    start,
    end,
    lead: '',
    ...(needsCommaBefore ? { commaAt: before + 1 } : {}),
    ...(followed ? { commaAfter: true } : {}),
  };
}

/**
 * YAML: the line holds only `- word` or `word` (the word may be empty). The line is replaced by a marker
 * item and the file parsed: where the marker lands says what the item would be, with all of YAML's
 * indentation rules (a sequence at its key's indent, flow collections, anchors) left to the yaml library.
 */
function yamlSlot(text: string, offset: number): SlotAt | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  let lineEnd = text.indexOf('\n', offset);
  if (lineEnd < 0) lineEnd = text.length;
  const m = /^([ ]*)(-[ ]+)?([\w-]*)$/.exec(text.slice(lineStart, offset));
  const rest = /^[\w-]*/.exec(text.slice(offset, lineEnd))![0];
  if (!m || text.slice(offset + rest.length, lineEnd).trim()) return undefined;
  const indent = m[1]!;
  const probe = `${text.slice(0, lineStart)}${indent}- ${MARK}${text.slice(lineEnd)}`;
  const doc = YAML.parseDocument(probe, { uniqueKeys: false });
  if (doc.errors.length) return undefined;
  const path = pathTo(doc.contents, []);
  if (!path || typeof path[path.length - 1] !== 'number') return undefined;
  const slot = slotOf(path.slice(0, -1));
  if (!slot) return undefined;
  return { slot, start: lineStart + indent.length, end: offset + rest.length, lead: m[2] ?? '' };
}

/** The path of the marker scalar in a parsed YAML tree. */
function pathTo(node: unknown, path: (string | number)[]): (string | number)[] | undefined {
  if (YAML.isScalar(node)) return node.value === MARK ? path : undefined;
  if (YAML.isSeq(node)) {
    for (let i = 0; i < node.items.length; i++) {
      const found = pathTo(node.items[i], [...path, i]);
      if (found) return found;
    }
  } else if (YAML.isMap(node)) {
    for (const pair of node.items) {
      const key = YAML.isScalar(pair.key) ? pair.key.value : pair.key;
      if (typeof key !== 'string' && typeof key !== 'number') continue;
      const found = pathTo(pair.value, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}

/** A template as snippet text: a JSON object, or a YAML sequence item (`- type: text` …). */
export function renderTemplate(t: Template, format: Format, at?: Pick<SlotAt, 'commaAfter'>): string {
  if (format === 'json') return JSON.stringify(t.body, null, 2) + (at?.commaAfter ? ',' : '');
  return YAML.stringify([t.body], { lineWidth: 0 }).trimEnd();
}
