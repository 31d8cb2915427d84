// Completion and hover for JSON request, count and case files, from the zod schema itself (schemaAssist.ts
// gives them to both front ends). What the cursor is on comes from jsonc-parser (a key, or a value after
// `"key":`); the schema at that path (schemaPath.ts) says the rest, as it does for YAML (yamlAssist.ts).
import { findNodeAtLocation, findNodeAtOffset, getLocation, getNodePath, getNodeValue, parseTree } from 'jsonc-parser';
import type { Node } from 'jsonc-parser';
import { fieldOf, fieldsOf, shapeOf, slotAt, typeOf, valuesOf, type Schema } from '../request/schemaPath';
import type { Path } from '../request/types';
import {
  branchesAbove,
  fieldDoc,
  isRequired,
  type AssistCompletions,
  type AssistHover,
  type AssistItem,
  type ValueHints,
} from './yamlAssist';

const contains = (n: Node, offset: number) => n.offset <= offset && offset <= n.offset + n.length;

/** The file's tree and value as far as they can be read (a file being typed is rarely valid JSON). */
function read(text: string): { tree: Node | undefined; value: unknown } {
  const tree = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  return { tree, value: tree ? getNodeValue(tree) : undefined };
}

/** Completions at `offset` of a JSON file checked against `root`; undefined where there are none. */
export function jsonCompletions(
  text: string,
  offset: number,
  root: Schema,
  hints: ValueHints = () => [],
): AssistCompletions | undefined {
  const loc = getLocation(text, offset);
  const prev = loc.previousNode && contains(loc.previousNode, offset) ? loc.previousNode : undefined;
  const { tree, value } = read(text);
  if (loc.isAtPropertyKey) {
    // the key being typed (jsonc-parser gives it as a `property` node), with its quotes
    const key = prev && (prev.type === 'string' || prev.type === 'property');
    const start = key ? prev.offset : wordStart(text, offset);
    const end = key ? prev.offset + prev.length : offset;
    const parent = loc.path.slice(0, -1);
    const renaming = /^\s*:/.test(text.slice(end));
    const items = fieldItems(root, value, parent, siblingsOf(tree, parent, offset), renaming);
    return items.length ? { start, end, items } : undefined;
  }
  if (!loc.path.length) return undefined;
  // a value: the literal being typed, or nothing yet right after `:` (or `[`, `,` in a list)
  const before = text.slice(0, offset).trimEnd().slice(-1);
  const inList = typeof loc.path[loc.path.length - 1] === 'number';
  if (!prev && !(before === ':' || (inList && (before === '[' || before === ',')))) return undefined;
  if (prev && prev.type !== 'string' && prev.type !== 'number' && prev.type !== 'boolean' && prev.type !== 'null')
    return undefined;
  const items = valueItems(root, value, loc.path, hints);
  if (!items.length) return undefined;
  return prev ? { start: prev.offset, end: prev.offset + prev.length, items } : { start: offset, end: offset, items };
}

function wordStart(text: string, offset: number): number {
  let start = offset;
  while (start > 0 && /[\w$.-]/.test(text[start - 1]!)) start--;
  return start;
}

/** The keys an object already has, the one being typed at `offset` left out. */
function siblingsOf(tree: Node | undefined, path: Path, offset: number): string[] {
  const node = tree && (path.length ? findNodeAtLocation(tree, path) : tree);
  if (node?.type !== 'object') return [];
  return (node.children ?? []).flatMap(p => {
    const key = p.children?.[0];
    return key && typeof key.value === 'string' && !contains(key, offset) ? [key.value] : [];
  });
}

function fieldItems(root: Schema, value: unknown, path: Path, siblings: string[], renaming: boolean): AssistItem[] {
  const slot = slotAt(root, value, path);
  if (!slot) return [];
  // an object whose kind its `type` picks, with no type yet: the type comes first
  const fields = slot.schema ? fieldsOf(slot.schema) : slot.branches.length ? ['type'] : [];
  return fields
    .filter(f => !siblings.includes(f))
    .map(f => {
      const field = slotAt(root, value, [...path, f]);
      const shape = shapeOf(slot.schema ? fieldOf(slot.schema, f) : undefined);
      const values = field ? valuesOf(field) : [];
      const key = JSON.stringify(f);
      const bracket = renaming ? undefined : shape === 'object' ? '{$1}' : shape === 'array' ? '[$1]' : undefined;
      return {
        label: f,
        kind: 'field' as const,
        insertText: renaming ? key : bracket ? `${key}: ${bracket}` : `${key}: `,
        ...(bracket ? { snippet: true } : {}),
        ...(field ? { documentation: fieldDoc(f, field) } : {}),
        ...(isRequired(slot.schema, f) ? { required: true } : {}),
        ...(!renaming && shape === 'scalar' && values.length ? { retrigger: true } : {}),
      };
    });
}

function valueItems(root: Schema, value: unknown, path: Path, hints: ValueHints): AssistItem[] {
  const slot = slotAt(root, value, path);
  if (!slot) return [];
  const named = typeof path[path.length - 1] === 'number' ? path.slice(0, -1) : path;
  const values = [...new Set([...valuesOf(slot), ...hints(named)])].filter(
    (v): v is string | number | boolean => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean',
  );
  const branches = path[path.length - 1] === 'type' ? branchesAbove(root, { path, value }) : [];
  return values.map(v => {
    const doc = typeof v === 'string' ? branches.find(b => typeOf(b.schema) === v)?.description : undefined;
    return {
      label: String(v),
      kind: 'value' as const,
      insertText: JSON.stringify(v),
      ...(doc ? { documentation: doc } : {}),
    };
  });
}

/** The hover at `offset`: the description of the field whose key or value is there. */
export function jsonHover(text: string, offset: number, root: Schema): AssistHover | undefined {
  const { tree, value } = read(text);
  const node = tree && findNodeAtOffset(tree, offset, true);
  if (!node) return undefined;
  const onKey = node.parent?.type === 'property' && node.parent.children?.[0] === node;
  const scalar = node.type === 'string' || node.type === 'number' || node.type === 'boolean' || node.type === 'null';
  if (!onKey && !scalar) return undefined;
  const at = getNodePath(node);
  // an item of a list is described by its list's field
  const path = !onKey && typeof at[at.length - 1] === 'number' ? at.slice(0, -1) : at;
  const slot = slotAt(root, value, path);
  const name = path[path.length - 1];
  if (!slot || typeof name !== 'string') return undefined;
  let markdown = fieldDoc(name, slot);
  // on a `type` value: what that kind of object is
  if (!onKey && name === 'type' && typeof node.value === 'string') {
    const branch = branchesAbove(root, { path, value }).find(b => typeOf(b.schema) === node.value);
    if (branch?.description) markdown += `\n\n\`${String(node.value)}\`: ${branch.description}`;
  }
  if (!slot.description && markdown === `**${name}**`) return undefined;
  return { markdown, start: node.offset, end: node.offset + node.length };
}
