// Where placeholder names may be completed in a case file: at a key of a case's `vars` map. Read from the
// text around the cursor rather than from a parse, since the file is half-typed while completion is asked
// for. Pure code (no `vscode`), tested in plain node.

/** A key position inside a `vars` map, and the keys the map already has (not offered again). */
export interface VarsContext {
  existing: Set<string>;
}

const YAML_VARS_LINE = /^(\s*)(?:-\s+)?vars\s*:\s*(?:#.*)?$/;
const YAML_KEY = /^\s*(?:-\s+)?(["']?)([^:#"'\s][^:#"']*)\1\s*:/;

const indentOf = (line: string) => /^\s*/.exec(line)![0].length;
const blank = (line: string) => /^\s*(#.*)?$/.test(line);

/**
 * In a YAML case file: whether `line` (the cursor at `character`) is a key of a block `vars:` map, i.e. what
 * is typed before the cursor is a bare name and the nearest less indented line above is `vars:`.
 */
export function yamlVarsContext(lines: readonly string[], line: number, character: number): VarsContext | undefined {
  const current = lines[line] ?? '';
  const before = current.slice(0, character);
  if (!/^\s+[A-Za-z0-9_.-]*$/.test(before)) return undefined;
  const indent = indentOf(current);
  const existing = new Set<string>();
  const siblings = (from: number, step: 1 | -1): number => {
    let i = from;
    for (; i >= 0 && i < lines.length; i += step) {
      const l = lines[i]!;
      if (blank(l)) continue;
      if (indentOf(l) !== indent) break;
      const key = YAML_KEY.exec(l)?.[2]?.trim();
      if (key) existing.add(key);
    }
    return i;
  };
  siblings(line + 1, 1);
  const parent = siblings(line - 1, -1);
  const head = parent >= 0 ? YAML_VARS_LINE.exec(lines[parent]!) : null;
  if (!head) return undefined;
  // `- vars:` puts the map's keys under `vars`, not under the dash
  const parentIndent = head[0].trimStart().startsWith('-') ? indentOf(lines[parent]!) + 2 : head[1]!.length;
  return indent > parentIndent ? { existing } : undefined;
}

/**
 * In a JSON case file, or a YAML flow map (`vars: { question: … }`): whether `offset` is at a key of an object
 * that is the value of `vars`: the innermost open `{` before it follows `"vars":` (or `vars:`), and the cursor
 * is where a key goes (after `{` or `,`).
 */
export function flowVarsContext(text: string, offset: number): VarsContext | undefined {
  // the part of a key typed so far (`"que`) is not what decides where the cursor is
  const typed = /"?[A-Za-z0-9_.-]*$/.exec(text.slice(Math.max(0, offset - 200), offset))![0].length;
  let depth = 0;
  let open = -1;
  let keyPosition: boolean | undefined;
  for (let i = offset - typed - 1; i >= 0; i--) {
    const c = text[i]!;
    if (c === '"') {
      // skip back over a string (its closing quote is what we met first)
      let j = i - 1;
      while (j >= 0 && !(text[j] === '"' && text[j - 1] !== '\\')) j--;
      i = j;
      continue;
    }
    if (keyPosition === undefined && !/\s/.test(c)) keyPosition = c === '{' || c === ',';
    if (c === '}' || c === ']') depth++;
    else if (c === '[') {
      if (depth === 0) return undefined;
      depth--;
    } else if (c === '{') {
      if (depth === 0) {
        open = i;
        break;
      }
      depth--;
    }
  }
  if (open < 0 || !keyPosition) return undefined;
  if (!/(?:"vars"|(?:^|[\s{,])vars)\s*:\s*$/.test(text.slice(Math.max(0, open - 40), open))) return undefined;
  const existing = new Set<string>();
  const close = matchingBrace(text, open);
  // keys quoted (JSON) or bare (YAML flow), each after `{` or `,`
  for (const m of text.slice(open, close).matchAll(/[{,]\s*(?:"((?:[^"\\]|\\.)*)"|([A-Za-z0-9_.-]+))\s*:/g))
    existing.add(m[1] ?? m[2]!);
  return { existing };
}

/** The offset of the `}` that closes the `{` at `open` (or the end of the text while it is unclosed). */
function matchingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      i++;
      while (i < text.length && !(text[i] === '"' && text[i - 1] !== '\\')) i++;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return text.length;
}
