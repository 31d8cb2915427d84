// Case files: `*.cases.yaml`, `*.cases.yml` or `*.cases.json`, read with the request files'
// parser (parse.ts: a value and the source range of any path in it, for JSON and YAML alike), checked with
// the zod schema below (the one source of the shape: completion and hover read it too), and
// reported as problems at exact ranges with stable rule names (catalog.ts, RULES.md).
import * as path from 'node:path';
import * as z from 'zod/mini';
import { closest, MODELS } from '../models/table';
import { emptyFileProblem, parseRequest, type Locate } from '../request/parse';
import { describe } from '../request/schema';
import { changeToFixes, enumCandidates } from '../request/enumFixes';
import { boundPerRule, RuleTally } from '../request/perRule';
import { keysOf } from '../request/parse/keys';
import { schemaIssues } from '../request/schemaCheck';
import type { Anchor, FixData, Format, Path, Problem, RuleId, Severity } from '../request/types';
import { count } from '../text';
import { normalizeTools } from '../tools/answers';
import { serverConfigOf, type McpServerConfig } from '../tools/mcpConfig';
import { compileRegex } from './regex';
import {
  ASSERTION_TYPES,
  type Assertion,
  type AssertionType,
  type CaseFile,
  type DatasetFormat,
  type TestCase,
  type VarValue,
} from './types';

/** The stop reasons the spec lists (doc1 §2.7); another value is a warning, since the list may grow. */
const STOP_REASONS = [
  'end_turn',
  'max_tokens',
  'stop_sequence',
  'tool_use',
  'pause_turn',
  'refusal',
  'model_context_window_exceeded',
] as const;

// ---- the schema ------------------------------------------------------------------------------------------

/** Describes a schema for the editors' hover and completion (core/language/schemaAssist.ts). */
const d = <T extends z.ZodMiniType>(s: T, description: string, examples?: readonly unknown[]): T => {
  z.globalRegistry.add(s, { description, ...(examples ? { examples: [...examples] } : {}) });
  return s;
};
const text = () => z.string().check(z.minLength(1));
const atLeastZero = () => z.int().check(z.minimum(0));

/** The most samples a cell may run. */
export const MAX_REPEAT = 100;

/** Model ids a case file can name, for completion: the spec's models that are not retired. */
const MODEL_IDS = MODELS.filter(m => m.status !== 'retired' && !m.base).map(m => m.id);

/** Each assertion's argument, by its key: what the key's value must be. */
export const ASSERTION_ARGUMENTS = {
  contains: d(z.string(), 'The reply text contains this text.'),
  icontains: d(z.string(), 'The reply text contains this text, ignoring case.'),
  'not-contains': d(z.string(), 'The reply text does not contain this text.'),
  regex: d(
    z.string(),
    'A JavaScript regular expression the reply text matches: bare (`^Bonjour`) or with flags (`/^bonjour/i`).',
  ),
  equals: d(z.string(), 'The reply text is exactly this.'),
  stop_reason: d(z.string(), "The reply's stop_reason.", STOP_REASONS),
  'max-output-tokens': d(atLeastZero(), 'usage.output_tokens is at most this.'),
  'max-input-tokens': d(
    atLeastZero(),
    'The input tokens (usage.input_tokens + cache_creation_input_tokens + cache_read_input_tokens) are at most this.',
  ),
  'max-latency-ms': d(
    z.number().check(z.minimum(0)),
    'Milliseconds from sending the request to the end of the reply, at most.',
  ),
  'json-schema': d(
    z.record(z.string(), z.unknown()),
    'A JSON Schema (draft 2020-12 unless `$schema` says otherwise) the reply text, parsed as JSON, validates against.',
  ),
  'tool-call': d(text(), 'The reply calls the tool of this name (a tool_use or server_tool_use block).'),
  rubric: d(
    z.union([
      text(),
      z.strictObject({
        criteria: d(text(), 'What the reply must do, in words.'),
        reference: z.nullish(d(z.string(), 'A reply that meets the criteria.')),
        threshold: z.nullish(d(z.number().check(z.minimum(0), z.maximum(1)), "The judge's least score (0 to 1).")),
      }),
    ]),
    'Graded by the judge model: criteria, or {criteria, reference, threshold}.',
  ),
  'max-cost': d(z.number().check(z.minimum(0)), 'US dollars the reply may cost at most (judge calls apart).'),
  'tool-called': d(
    z.union([
      text(),
      z.strictObject({
        name: d(text(), "The tool's name."),
        input: z.optional(d(z.unknown(), "The call's input holds this (every key equal, deep).")),
      }),
    ]),
    "The model called this tool in some turn: its name, or {name, input} (the input a deep subset of the call's).",
  ),
  'tool-not-called': d(text(), 'The model called this tool in no turn.'),
  'tool-sequence': d(
    z.array(text()).check(z.minLength(1)),
    'The model called these tools in this order (other calls may come between).',
  ),
  'max-turns': d(z.int().check(z.minimum(1)), 'The tool-use loop ended within this many model requests.'),
} as const satisfies Record<AssertionType, z.ZodMiniType>;

const AssertionSchema = d(
  z.strictObject(
    Object.fromEntries(ASSERTION_TYPES.map(t => [t, z.optional(ASSERTION_ARGUMENTS[t])])) as {
      [K in AssertionType]: z.ZodMiniOptional<(typeof ASSERTION_ARGUMENTS)[K]>;
    },
  ),
  'One assertion on the reply: exactly one of these keys, with its argument.',
);

const VarValueSchema = d(
  z.union([z.string(), z.number(), z.boolean()]),
  'The text written in place of `{{name}}` in the request (a number or true/false is written as text).',
);

/** The most model requests a loop's cell may make. */
const MAX_TURNS_LIMIT = 100;

const ToolEntrySchema = d(
  z.strictObject({
    when: z.nullish(
      d(
        z.record(z.string(), z.unknown()),
        'The entry answers a call whose input holds every key of `when` with the same value (deep). ' +
          'Without it: any input.',
      ),
    ),
    result: z.optional(d(z.unknown(), 'The answer: a text as it is, an object or a list as its JSON text.')),
    is_error: z.nullish(d(z.boolean(), 'The answer is an error (the tool_result says is_error).')),
    mcp: z.nullish(
      d(text(), "Answered live by this MCP server (.vscode/mcp.json or mcp-servers), by the tool's name."),
    ),
    simulate: z.nullish(
      d(text(), 'A model (the co-author model) invents a plausible answer, following these instructions.'),
    ),
  }),
  'One way the tool answers: an optional `when`, and one of `result`, `mcp`, `simulate`.',
);

const ToolsSchema = d(
  z.record(
    z.string(),
    d(
      z.union([z.string(), ToolEntrySchema, z.array(ToolEntrySchema)]),
      "How the tool's calls are answered: a text for any input, an entry, or entries tried in order.",
    ),
  ),
  'How each tool call is answered, by tool name. With `tools`, a cell runs a tool-use loop.',
);

const McpServerSchema = d(
  z.strictObject({
    type: z.nullish(d(z.enum(['stdio', 'http', 'sse']), 'stdio (a command) or http (an address).')),
    command: z.nullish(d(text(), 'The command that starts a stdio server.')),
    args: z.nullish(d(z.array(z.string()), "The command's arguments.")),
    env: z.nullish(d(z.record(z.string(), z.string()), 'Environment variables for the server (${env:NAME} allowed).')),
    cwd: z.nullish(d(z.string(), 'The folder the server starts in (${workspaceFolder} allowed).')),
    url: z.nullish(d(text(), "An http server's address.")),
    headers: z.nullish(d(z.record(z.string(), z.string()), 'Headers sent to an http server.')),
  }),
  "An MCP server, as VS Code's .vscode/mcp.json writes it.",
);

const TestCaseSchema = d(
  z.strictObject({
    name: d(text(), "The case's name: a row of the grid, a test case in JUnit. Unique in the file."),
    vars: z.nullish(
      d(z.record(z.string(), VarValueSchema), "Values of the request's `{{name}}` placeholders, by name."),
    ),
    assert: z.nullish(d(z.array(AssertionSchema), 'Assertions on the reply; the case passes when all hold.')),
    tools: z.nullish(ToolsSchema),
  }),
  'A case: values for the placeholders, and what the reply must do.',
);

export const CaseFileSchema = d(
  z.strictObject({
    request: d(text(), 'The request file (`*.prompt.json` / `*.prompt.yaml`), relative to this file.'),
    models: z.nullish(
      d(
        z.array(d(text(), 'A model id.', MODEL_IDS)).check(z.minLength(1)),
        "The models every case runs on (a column each). Default: the request's own model.",
      ),
    ),
    judge: z.nullish(
      d(
        z.strictObject({
          model: z.nullish(d(text(), 'The judge model.', MODEL_IDS)),
          prompt: z.nullish(d(text(), 'A prompt file with {{criteria}}, {{reply}}, {{reference}}, {{input}}.')),
        }),
        'Who grades rubrics (default model: promptwright.cases.judgeModel).',
      ),
    ),
    repeat: z.nullish(d(z.int().check(z.minimum(1), z.maximum(MAX_REPEAT)), 'Samples per cell (default 1).')),
    'min-pass': z.nullish(
      d(z.int().check(z.minimum(1), z.maximum(MAX_REPEAT)), 'Samples that must pass (default: all).'),
    ),
    'max-turns': z.nullish(
      d(
        z.int().check(z.minimum(1), z.maximum(MAX_TURNS_LIMIT)),
        "Model requests a tool-use loop's cell may make (default 10); reaching it with the model still calling " +
          'tools fails the cell.',
      ),
    ),
    tools: z.nullish(ToolsSchema),
    'mcp-servers': z.nullish(
      d(z.record(z.string(), McpServerSchema), 'MCP servers by name, beside .vscode/mcp.json (these win by name).'),
    ),
    dataset: z.nullish(
      d(
        text(),
        'A data file whose rows are cases too, after the listed ones: .csv (a header row), .tsv, .jsonl or .json ' +
          '(an array), relative to this file. Columns not starting with `__` are vars; `__expected` holds an ' +
          'assertion as `KIND: VALUE`, `__description` names the row.',
      ),
    ),
    assert: z.nullish(
      d(z.array(AssertionSchema), 'Assertions every case runs before its own (listed cases and dataset rows).'),
    ),
    cases: z.nullish(d(z.array(TestCaseSchema), 'The cases (a row each); optional with a dataset.')),
  }),
  'A Promptwright case file: a request file run with several sets of values on several models, with assertions.',
);

// ---- reading and checking --------------------------------------------------------------------------------

export interface CaseFileParse {
  /**
   * What can be used of the file: present when it is an object with a `request` text and a `cases` list.
   * Invalid parts are left out (an assertion or a value of the wrong shape), but `cases[i]` is always the
   * i-th item of the list, so paths such as `['cases', i, 'vars']` locate it. Check `problems` for errors
   * before running anything.
   */
  file?: CaseFile;
  problems: Problem[];
  locate: Locate;
  /** `locate` for many paths at once (parse.ts): what placing many problems needs */
  locateMany: (paths: readonly Path[]) => Locate;
}

interface PathProblem {
  path: Path;
  anchor: Anchor;
  code: RuleId;
  severity: Severity;
  message: string;
  fixes?: FixData[];
}

/** Parses and checks a case file's text. */
export function parseCaseFile(text: string, format: Format): CaseFileParse {
  const parsed = parseRequest(text, format);
  const problems: Problem[] = [...parsed.problems];
  const value = parsed.value;
  if (value === undefined) {
    if (!problems.length) problems.push(emptyFileProblem(text, 'a case file needs "request" and "cases"'));
    return { problems, locate: parsed.locate, locateMany: paths => parsed.locateMany(paths) };
  }
  if (!isObject(value)) {
    const span = parsed.locate([]) ?? { start: 0, end: Math.min(1, text.length) };
    problems.push({
      ...span,
      severity: 'error',
      code: 'not-an-object',
      path: [],
      message: 'A case file holds one object with "request", "cases" and optionally "models".',
    });
    return { problems, locate: parsed.locate, locateMany: paths => parsed.locateMany(paths) };
  }
  const found: PathProblem[] = [];
  const tally = new RuleTally();
  // zod's issues, without the copy of the file safeParse would build (schemaCheck.ts)
  for (const iss of schemaIssues(CaseFileSchema, value)) convert(iss, iss.path as Path, value, found, tally);
  checkBeyondSchema(value, found, tally);
  // the first of each rule (past the bound a problem is only counted), placed together
  const said = boundPerRule(found);
  const locate = parsed.locateMany(said.map(p => p.path));
  for (const p of said) problems.push(place(locate, p));
  for (const p of problems) {
    p.start = Math.max(0, Math.min(p.start, text.length));
    p.end = Math.max(p.start, Math.min(p.end, text.length));
  }
  problems.sort((a, b) => a.start - b.start || a.end - b.end);
  const file = salvage(value);
  return { ...(file ? { file } : {}), problems, locate: parsed.locate, locateMany: paths => parsed.locateMany(paths) };
}

/** A dataset's format, by its file's extension; undefined for a file that is not one. */
export function datasetFormatOf(fileName: string): DatasetFormat | undefined {
  const ext = /\.(csv|tsv|jsonl|json)$/i.exec(fileName)?.[1]?.toLowerCase();
  return ext as DatasetFormat | undefined;
}

/** The request file a case file names, as a path (relative to the case file's folder). */
export function requestPathOf(caseFilePath: string, file: Pick<CaseFile, 'request'>): string {
  return path.resolve(path.dirname(caseFilePath), file.request);
}

/** The problem for a `request` that names no readable file, at the `request` value. */
export function requestNotFound(locate: Locate, request: string, why = 'no such file'): Problem {
  const span = locate(['request']) ?? locate([]) ?? { start: 0, end: 1 };
  return {
    ...span,
    severity: 'error',
    code: 'request-not-found',
    path: ['request'],
    message: `The request file "${request}" cannot be read (${why}). The path is relative to this case file.`,
  };
}

/** The problem for a `dataset` that names no readable file, at the `dataset` value. */
export function datasetNotFound(locate: Locate, dataset: string): Problem {
  const span = locate(['dataset']) ?? locate([]) ?? { start: 0, end: 1 };
  return {
    ...span,
    severity: 'error',
    code: 'dataset-not-found',
    path: ['dataset'],
    message:
      `The dataset "${dataset}" cannot be read (no such file). The path is relative to this case file; a dataset ` +
      'is a .csv, .tsv, .jsonl or .json file.',
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const getAt = (root: unknown, p: Path): unknown => {
  let v = root;
  for (const seg of p)
    v = v !== null && typeof v === 'object' ? (v as Record<string | number, unknown>)[seg] : undefined;
  return v;
};

/** An assertion's path: ['cases', i, 'assert', j], or a file-level one, ['assert', j]. */
const isAssertionPath = (p: Path) =>
  (p.length === 4 && p[0] === 'cases' && p[2] === 'assert') || (p.length === 2 && p[0] === 'assert');

/** The keys the object at a path may have (for "did you mean"). */
function keysAt(p: Path): readonly string[] {
  if (p.length === 0) return Object.keys(CaseFileSchema.shape);
  if (p.length === 1 && p[0] === 'judge') return ['model', 'prompt'];
  if (p.length === 2 && p[0] === 'cases') return Object.keys(TestCaseSchema.shape);
  if (isAssertionPath(p)) return ASSERTION_TYPES;
  if (p.length >= 3 && isAssertionPath(p.slice(0, -1)) && p[p.length - 1] === 'rubric')
    return ['criteria', 'reference', 'threshold'];
  if (p.length >= 3 && isAssertionPath(p.slice(0, -1)) && p[p.length - 1] === 'tool-called') return ['name', 'input'];
  if (toolEntryPath(p)) return Object.keys(ToolEntrySchema.shape);
  if (p.length === 2 && p[0] === 'mcp-servers') return Object.keys(McpServerSchema.shape);
  return [];
}

/** A tool's entry: ['tools', name] or ['tools', name, j], the same under ['cases', i]. */
function toolEntryPath(p: Path): boolean {
  const at = p[0] === 'cases' ? p.slice(2) : p;
  return (
    at[0] === 'tools' &&
    typeof at[1] === 'string' &&
    (at.length === 2 || (at.length === 3 && typeof at[2] === 'number'))
  );
}

/** Where an object is, in a message: the case file, "judge", case 2, the rubric of case 2. */
function objectName(p: Path): string {
  if (p.length === 0) return 'the case file';
  if (p[0] === 'judge') return '"judge"';
  if (p[0] === 'mcp-servers') return `MCP server "${String(p[1])}"`;
  if (toolEntryPath(p)) return `an entry of tool "${String(p[p[0] === 'cases' ? 3 : 1])}"`;
  if (p[0] === 'assert') return `the ${String(p[2])} of the file's assertion ${Number(p[1]) + 1}`;
  return `${p.length > 4 ? `the ${String(p[4])} of ` : ''}case ${Number(p[1]) + 1}`;
}

/** How a field is named in a message: `"request"`, `the value of "tone"`, `item 2 of "models"`. */
function fieldName(p: Path): string {
  const last = p[p.length - 1];
  const parent = p[p.length - 2];
  if (typeof last === 'number') return `item ${last + 1} of "${String(parent)}"`;
  if (parent === 'vars') return `the value of "${last}"`;
  if (isAssertionPath(p.slice(0, -1))) return `the argument of "${last}"`;
  return last === undefined ? 'the case file' : `"${last}"`;
}

const EXPECTED: Record<string, string> = {
  object: 'an object',
  array: 'a list',
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  record: 'an object',
};

function convert(iss: z.core.$ZodIssue, p: Path, root: unknown, out: PathProblem[], tally: RuleTally): void {
  const input = getAt(root, p);
  const push = (code: RuleId, message: string, extra: Partial<PathProblem> = {}) =>
    out.push({ path: p, anchor: 'value', code, severity: 'error', message, ...extra });
  const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  switch (iss.code) {
    case 'invalid_type': {
      const key = p[p.length - 1];
      const parent = getAt(root, p.slice(0, -1));
      if (input === undefined && typeof key === 'string' && isObject(parent) && !(key in parent)) {
        const where = objectName(p.slice(0, -1));
        const expected = EXPECTED[iss.expected] ?? iss.expected;
        push('case-missing-field', `Missing required field "${key}" (${expected}) in ${where}.`, {
          path: p.slice(0, -1),
          anchor: 'container',
        });
        return;
      }
      const expected = EXPECTED[iss.expected] ?? iss.expected;
      // `key:` with nothing after it has no range of its own: the key is what to fix
      const anchor = input === null && typeof key === 'string' ? 'key' : 'value';
      push('case-wrong-type', `${cap(fieldName(p))} must be ${expected}, not ${describe(input)}.`, { anchor });
      return;
    }
    case 'invalid_union': {
      const anchor = input === null ? 'key' : 'value';
      if (p[p.length - 1] === 'rubric') {
        // a rubric written as an object: what is wrong inside it (its branch of the union)
        const inner = isObject(input) ? iss.errors.find(branch => branch.some(e => e.path.length > 0)) : undefined;
        if (inner) {
          for (const e of inner) convert(e, [...p, ...(e.path as Path)], root, out, tally);
          return;
        }
        const message =
          `${cap(fieldName(p))} must be the criteria as text, or {criteria, reference, threshold}, ` +
          `not ${describe(input)}.`;
        push('case-wrong-type', message, { anchor });
        return;
      }
      if (p[p.length - 1] === 'tool-called') {
        const inner = isObject(input) ? iss.errors[1] : undefined;
        if (inner?.length) {
          for (const e of inner) convert(e, [...p, ...(e.path as Path)], root, out, tally);
          return;
        }
        push(
          'case-wrong-type',
          `${cap(fieldName(p))} must be a tool's name, or {name, input}, not ${describe(input)}.`,
          {
            anchor,
          },
        );
        return;
      }
      if (p[p.length - 2] === 'tools') {
        // a tool's answers: the branch its value's type picks (an entry, or a list of entries)
        const inner = isObject(input) ? iss.errors[1] : Array.isArray(input) ? iss.errors[2] : undefined;
        if (inner?.length) {
          for (const e of inner) convert(e, [...p, ...(e.path as Path)], root, out, tally);
          return;
        }
        const message =
          `The answers of tool "${String(p[p.length - 1])}" must be a text, an entry ({when, result, is_error} ` +
          `or {mcp} or {simulate}) or a list of entries, not ${describe(input)}.`;
        push('case-wrong-type', message, { anchor });
        return;
      }
      // the other union is a placeholder's value
      const message = `${cap(fieldName(p))} must be text, a number or true/false, not ${describe(input)}.`;
      push('case-wrong-type', message, { anchor });
      return;
    }
    case 'unrecognized_keys':
      unknownKeys(p, iss.keys, root, out, tally);
      return;
    case 'too_small': {
      const empty =
        iss.origin === 'string'
          ? `${cap(fieldName(p))} must not be empty.`
          : iss.origin === 'array'
            ? `${cap(fieldName(p))} needs at least one item.`
            : `${cap(fieldName(p))} must be at least ${Number(iss.minimum)}, not ${describe(input)}.`;
      push('case-invalid-value', empty);
      return;
    }
    case 'too_big':
      push(
        'case-invalid-value',
        `${cap(fieldName(p))} must be at most ${Number(iss.maximum)}, not ${describe(input)}.`,
      );
      return;
    default:
      push('case-invalid-value', `${cap(fieldName(p))}: ${iss.message}`);
  }
}

/**
 * The unknown keys of one object: in an assertion, an unknown kind (an error: it would assert nothing); elsewhere
 * a warning. Past the bound of the rule the others are counted together, not one by one.
 */
function unknownKeys(p: Path, keys: readonly string[], root: unknown, out: PathProblem[], tally: RuleTally): void {
  // a JSON case file names its schema for the editor (`promptwright schema --cases`): nothing reads it but the editor
  const unknown = p.length === 0 ? keys.filter(k => k !== '$schema') : keys;
  const code = isAssertionPath(p) ? 'unknown-assertion' : 'case-unknown-field';
  const severity: Severity = code === 'unknown-assertion' ? 'error' : 'warning';
  for (let i = 0; i < unknown.length; i++) {
    const key = unknown[i]!;
    if (tally.said(code)) unknownKey(p, key, root, out);
    else {
      const left = unknown.length - i;
      return tally.leftOut<PathProblem>(
        code,
        out,
        () => ({ path: [...p, key], anchor: 'key', code, severity, message: '' }),
        left,
      );
    }
  }
}

/** An unknown key, said in full. */
function unknownKey(p: Path, key: string, root: unknown, out: PathProblem[]): void {
  const at = [...p, key];
  const here = getAt(root, p);
  const candidates = keysAt(p).filter(k => !(isObject(here) && k in here));
  const near = closest(key, candidates, 2);
  const hint = near ? ` Did you mean "${near}"?` : '';
  if (isAssertionPath(p)) {
    // the assertion kinds are a fixed set of keys: the nearest ones as renames, the clearly meant one preferred
    const fixes: FixData[] = enumCandidates(key, candidates).map(c => ({
      kind: 'rename-property',
      title: `Rename to '${c.value}'`,
      path: at,
      key: c.value,
      ...(c.preferred ? { preferred: true } : {}),
    }));
    out.push({
      path: at,
      anchor: 'key',
      code: 'unknown-assertion',
      severity: 'error',
      message: `Unknown assertion "${key}".${hint || ` Known: ${ASSERTION_TYPES.join(', ')}.`}`,
      ...(fixes.length ? { fixes } : {}),
    });
    return;
  }
  const where = objectName(p);
  out.push({
    path: at,
    anchor: 'key',
    code: 'case-unknown-field',
    severity: 'warning',
    message: `Unknown field "${key}" in ${where}: it is ignored.${hint}`,
  });
}

/** What the schema cannot say: unique case names, one key per assertion, patterns that compile, stop reasons. */
function checkBeyondSchema(root: Record<string, unknown>, out: PathProblem[], tally: RuleTally): void {
  const repeat = Number.isInteger(root.repeat) ? (root.repeat as number) : 1;
  const minPass = root['min-pass'];
  if (typeof minPass === 'number' && Number.isInteger(minPass) && minPass > repeat) {
    out.push({
      path: ['min-pass'],
      anchor: 'value',
      code: 'min-pass-over-repeat',
      severity: 'error',
      message:
        `${minPass} samples must pass, but each cell runs ${count(repeat, 'sample')}` +
        `${root.repeat === undefined || root.repeat === null ? ' (repeat defaults to 1)' : ''}: no cell could pass.`,
    });
  }
  const hasDataset = root.dataset !== undefined && root.dataset !== null;
  if (typeof root.dataset === 'string' && root.dataset && !datasetFormatOf(root.dataset)) {
    out.push({
      path: ['dataset'],
      anchor: 'value',
      code: 'case-invalid-value',
      severity: 'error',
      message: `"dataset" must name a .csv, .tsv, .jsonl or .json file, not "${root.dataset}".`,
    });
  }
  if (!hasDataset && (root.cases === undefined || root.cases === null)) {
    out.push({
      path: [],
      anchor: 'container',
      code: 'case-missing-field',
      severity: 'error',
      message: 'Missing required field "cases" (a list) in the case file, or a "dataset" whose rows are the cases.',
    });
  } else if (!hasDataset && Array.isArray(root.cases) && !root.cases.length) {
    out.push({
      path: ['cases'],
      anchor: 'value',
      code: 'case-invalid-value',
      severity: 'error',
      message: '"cases" needs at least one item (or give a "dataset" whose rows are the cases).',
    });
  }
  if (Array.isArray(root.assert)) root.assert.forEach((a: unknown, j) => checkAssertion(a, ['assert', j], out));
  const fileAsserts = Array.isArray(root.assert) && root.assert.length > 0;
  const cases = Array.isArray(root.cases) ? root.cases : [];
  const seen = new Map<string, number>();
  cases.forEach((c: unknown, i) => {
    if (!isObject(c)) return;
    if (typeof c.name === 'string' && c.name) {
      const first = seen.get(c.name);
      if (first === undefined) seen.set(c.name, i);
      else
        out.push({
          path: ['cases', i, 'name'],
          anchor: 'value',
          code: 'duplicate-case-name',
          severity: 'error',
          message: `Case ${first + 1} has the same name: results are kept by name, so each case needs its own.`,
        });
    }
    if (Array.isArray(c.assert)) c.assert.forEach((a: unknown, j) => checkAssertion(a, ['cases', i, 'assert', j], out));
    if ((!Array.isArray(c.assert) || !c.assert.length) && !fileAsserts) {
      const named = typeof c.name === 'string' && c.name ? c.name : undefined;
      const problem = (message: string): PathProblem => ({
        path: named ? ['cases', i, 'name'] : ['cases', i],
        anchor: 'value',
        code: 'case-without-assertions',
        severity: 'warning',
        message,
      });
      // past the bound only counted: a file of 100,000 cases without assertions builds no 99,000 messages
      if (!tally.said('case-without-assertions')) tally.leftOut('case-without-assertions', out, () => problem(''));
      else
        out.push(
          problem(
            `${named ? `Case "${named}"` : 'This case'} has no assertions: nothing checks its reply, so it shows ` +
              'NO ASSERTIONS rather than PASS. Add one under "assert" (contains, regex, rubric…).',
          ),
        );
    }
    checkToolEntries(c.tools, ['cases', i, 'tools'], out);
  });
  checkToolEntries(root.tools, ['tools'], out);
}

/** Each tool entry answers with exactly one of `result`, `mcp` and `simulate`. */
function checkToolEntries(tools: unknown, at: Path, out: PathProblem[]): void {
  if (!isObject(tools)) return;
  const SOURCES = ['result', 'mcp', 'simulate'] as const;
  for (const [name, spec] of Object.entries(tools)) {
    const entries: [unknown, Path][] = Array.isArray(spec)
      ? spec.map((e: unknown, j) => [e, [...at, name, j]])
      : [[spec, [...at, name]]];
    for (const [e, where] of entries) {
      if (!isObject(e)) continue; // a text is an answer; anything else the schema reported
      const given = SOURCES.filter(k => e[k] !== undefined && e[k] !== null);
      if (given.length === 1) continue;
      out.push({
        path: given.length ? [...where, given[1]!] : where,
        anchor: given.length ? 'key' : 'value',
        code: 'tool-answer-missing',
        severity: 'error',
        message: given.length
          ? `An entry of tool "${name}" answers one way: ${given.map(k => `"${k}"`).join(' and ')} here. ` +
            'Write each as an entry of its own.'
          : `An entry of tool "${name}" says no answer: give it "result" (the answer), "mcp" (a server's name) ` +
            'or "simulate" (instructions for a model).',
      });
    }
  }
}

function checkAssertion(a: unknown, at: Path, out: PathProblem[]): void {
  if (!isObject(a)) return; // the schema reported it
  const keys = Object.keys(a);
  const known = keys.filter((k): k is AssertionType => (ASSERTION_TYPES as readonly string[]).includes(k));
  if (keys.length === 0) {
    out.push({
      path: at,
      anchor: 'value',
      code: 'assertion-keys',
      severity: 'error',
      message: `An empty assertion: give it one key (${ASSERTION_TYPES.join(', ')}) and its argument.`,
    });
  } else if (known.length > 1) {
    out.push({
      path: [...at, known[1]!],
      anchor: 'key',
      code: 'assertion-keys',
      severity: 'error',
      message:
        `One assertion per item: this one has ${known.map(k => `"${k}"`).join(' and ')}. ` +
        'Write each as an item of its own.',
    });
  }
  const pattern = a.regex;
  if (typeof pattern === 'string') {
    try {
      compileRegex(pattern);
    } catch (e) {
      const why = e instanceof Error ? e.message.replace(/^Invalid regular expression: /, '') : String(e);
      out.push({
        path: [...at, 'regex'],
        anchor: 'value',
        code: 'invalid-regex',
        severity: 'error',
        message: `This regular expression does not compile: ${why}.`,
      });
    }
  }
  const stop = a.stop_reason;
  if (typeof stop === 'string' && !(STOP_REASONS as readonly string[]).includes(stop)) {
    const near = closest(stop, STOP_REASONS, 3);
    out.push({
      path: [...at, 'stop_reason'],
      anchor: 'value',
      code: 'unknown-stop-reason',
      severity: 'warning',
      message:
        `The spec lists no stop_reason "${stop}"` +
        (near ? `: did you mean "${near}"?` : `; it lists ${STOP_REASONS.join(', ')}.`),
      fixes: changeToFixes([...at, 'stop_reason'], stop, STOP_REASONS),
    });
  }
}

/** Turns a path problem into offsets, falling back to the nearest enclosing node that can be found. */
function place(locate: Locate, p: PathProblem): Problem {
  const { path: at, anchor, ...rest } = p;
  let span;
  if (anchor === 'container') {
    const whole = locate(at);
    // a missing field of a list item or of the file: the start of the object it belongs in
    span = typeof at[at.length - 1] === 'string' ? locate(at, true) : undefined;
    if (!span && whole) span = { start: whole.start, end: whole.start + 1 };
  } else span = locate(at, anchor === 'key');
  for (let n = at.length - 1; !span && n >= 0; n--) span = locate(at.slice(0, n), typeof at[n - 1] === 'string');
  span ??= { start: 0, end: 1 };
  return { start: span.start, end: span.end, path: at, ...rest };
}

// ---- what can be used of a file with problems ---------------------------------------------------------------

function salvage(v: Record<string, unknown>): CaseFile | undefined {
  const dataset = typeof v.dataset === 'string' && datasetFormatOf(v.dataset) ? v.dataset : undefined;
  if (typeof v.request !== 'string' || !(Array.isArray(v.cases) || dataset)) return undefined;
  const cases = Array.isArray(v.cases) ? v.cases : [];
  const assert = Array.isArray(v.assert) ? v.assert.filter(isValidAssertion) : [];
  const models = Array.isArray(v.models) ? v.models.filter((m): m is string => typeof m === 'string' && !!m) : [];
  const j = isObject(v.judge) ? v.judge : {};
  const judge = {
    ...(typeof j.model === 'string' && j.model ? { model: j.model } : {}),
    ...(typeof j.prompt === 'string' && j.prompt ? { prompt: j.prompt } : {}),
  };
  const whole = (x: unknown) => (Number.isInteger(x) && (x as number) >= 1 ? (x as number) : undefined);
  const repeat = whole(v.repeat);
  const minPass = whole(v['min-pass']);
  const maxTurns = whole(v['max-turns']);
  const tools = normalizeTools(v.tools);
  const servers: Record<string, McpServerConfig> = {};
  if (isObject(v['mcp-servers']))
    for (const [name, c] of Object.entries(v['mcp-servers'])) {
      const config = serverConfigOf(c);
      if (!('problem' in config))
        Object.defineProperty(servers, name, { value: config, enumerable: true, writable: true, configurable: true });
    }
  return {
    request: v.request,
    ...(models.length ? { models } : {}),
    ...(Object.keys(judge).length ? { judge } : {}),
    ...(repeat ? { repeat } : {}),
    ...(minPass ? { minPass } : {}),
    ...(maxTurns ? { maxTurns } : {}),
    ...(tools ? { tools } : {}),
    ...(Object.keys(servers).length ? { mcpServers: servers } : {}),
    ...(dataset ? { dataset } : {}),
    ...(assert.length ? { assert } : {}),
    cases: cases.map(salvageCase),
  };
}

function salvageCase(c: unknown): TestCase {
  if (!isObject(c)) return { name: '' };
  const out: TestCase = { name: typeof c.name === 'string' ? c.name : '' };
  if (isObject(c.vars)) out.vars = salvageVars(c.vars);
  if (Array.isArray(c.assert)) out.assert = c.assert.filter(isValidAssertion);
  const tools = normalizeTools(c.tools);
  if (tools) out.tools = tools;
  return out;
}

const isVarValue = (v: unknown): v is VarValue =>
  typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/**
 * A case's vars of the kinds a var can have. The parsed object itself when all are (it is the parse's own, and
 * copying 100,000 keys cost a check a seventh of its time); else a copy of those that are.
 */
function salvageVars(given: Record<string, unknown>): Record<string, VarValue> {
  if (Object.getPrototypeOf(given) === Object.prototype && keysOf(given).every(k => isVarValue(given[k])))
    return given as Record<string, VarValue>;
  const vars: Record<string, VarValue> = {};
  for (const [k, v] of Object.entries(given))
    if (isVarValue(v)) {
      // a key "__proto__" stays a property (assigned, it would set the prototype); the others are assigned, faster
      if (k === '__proto__')
        Object.defineProperty(vars, k, { value: v, enumerable: true, writable: true, configurable: true });
      else vars[k] = v;
    }
  return vars;
}

export function isValidAssertion(a: unknown): a is Assertion {
  if (!isObject(a)) return false;
  const keys = Object.keys(a);
  if (keys.length !== 1) return false;
  const key = keys[0] as AssertionType;
  if (!(ASSERTION_TYPES as readonly string[]).includes(key)) return false;
  if (schemaIssues(ASSERTION_ARGUMENTS[key], a[key]).length) return false;
  if (key === 'regex') {
    try {
      compileRegex(a[key] as string);
    } catch {
      return false;
    }
  }
  return true;
}
