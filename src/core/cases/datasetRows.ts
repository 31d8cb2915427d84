// A dataset's row as a case. The conventions of promptfoo's test CSVs, so that such a file works unchanged:
// a column not starting with `__` is a var; `__expected`, `__expected1`, `__expected2`… each hold one assertion
// written `KIND: VALUE` (`contains: refund`, promptfoo's `llm-rubric: …` read as `rubric`), and a value with no
// known kind is `equals`; `__description` names the case, else it is `row N` (N its line). A JSON Lines or JSON
// row with a `vars` key is a case object (`name`, `vars`, `assert`); its assertions may be ours (`contains: x`)
// or promptfoo's (`type: contains, value: x`).
import { schemaIssues } from '../request/schemaCheck';
import { ASSERTION_ARGUMENTS, isValidAssertion } from './caseFile';
import { compileRegex } from './regex';
import { ASSERTION_TYPES, type Assertion, type AssertionType, type TestCase, type VarValue } from './types';

/** What is wrong with a row, at its line; `key` names the column or key, to find its column. */
interface RowProblem {
  message: string;
  key?: string;
}

/** A row read as a case: the case (undefined when it cannot be one), whether the row named it, its problems. */
export interface RowCase {
  testCase?: TestCase;
  /** `__description` or `name` gave the name (it is part of the case's id); else it is `row N` */
  named: boolean;
  problems: readonly RowProblem[];
  /** keys of a case object that are not case keys (ignored; warned once a file) */
  ignoredKeys?: string[];
}

/** Whether a column (or a row object's key) is one of the conventions' special columns. */
export const isSpecialColumn = (key: string) => key.startsWith('__');

/** `__expected`, `__expected1`, `__expected2`…: an assertion each. */
const EXPECTED = /^__expected\d*$/;
const DESCRIPTION = '__description';

/** The special columns read; any other `__` column is ignored (one warning for the file). */
export const isKnownSpecialColumn = (key: string) => EXPECTED.test(key) || key === DESCRIPTION;

/** Kinds whose argument is a number; the others a text assertion names take text (json-schema apart). */
const NUMBER_KINDS = new Set<AssertionType>(['max-output-tokens', 'max-input-tokens', 'max-latency-ms', 'max-cost']);
const TEXT_KINDS = ASSERTION_TYPES.filter(k => !NUMBER_KINDS.has(k) && k !== 'json-schema');

/** promptfoo's kinds that have no equivalent here: named as such, never read as text to equal. */
const UNSUPPORTED = new Set([
  'javascript',
  'python',
  'ruby',
  'webhook',
  'similar',
  'contains-any',
  'contains-all',
  'icontains-any',
  'icontains-all',
  'contains-json',
  'contains-sql',
  'contains-xml',
  'contains-html',
  'is-sql',
  'is-xml',
  'is-html',
  'is-valid-openai-tools-call',
  'is-valid-openai-function-call',
  'is-refusal',
  'levenshtein',
  'rouge-n',
  'bleu',
  'meteor',
  'gleu',
  'f-score',
  'perplexity',
  'perplexity-score',
  'cost',
  'latency',
  'finish-reason',
  'classifier',
  'moderation',
  'factuality',
  'answer-relevance',
  'context-faithfulness',
  'context-recall',
  'context-relevance',
  'model-graded-closedqa',
  'model-graded-factuality',
  'select-best',
  'max-score',
  'g-eval',
  'guardrails',
  'word-count',
  'not-icontains',
  'not-regex',
  'not-equals',
  'not-starts-with',
  'not-is-json',
]);

type Kind = { kind: AssertionType; read?: (value: string) => unknown };

/** The kinds a text assertion may name, by their names in lower case: ours, promptfoo's, and those we do not run. */
const KINDS = new Map<string, Kind | 'unsupported'>([
  ...[...UNSUPPORTED].map(name => [name, 'unsupported'] as const),
  ...ASSERTION_TYPES.map(kind => [kind, { kind }] as const),
  ['llm-rubric', { kind: 'rubric' }],
  ['grade', { kind: 'rubric' }],
  ['starts-with', { kind: 'regex', read: v => `^${v.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}` }],
  ['is-json', { kind: 'json-schema', read: () => ({}) }],
  ['stop-reason', { kind: 'stop_reason' }],
]);

/** The kind a text assertion names, promptfoo's names included. */
const kindOf = (raw: string): Kind | 'unsupported' | undefined => KINDS.get(raw.toLowerCase());

/** The kind last named at the start of a text, as written, and what it names: a column's rows name one kind. */
let lastName = '';
let lastKind: Kind | 'unsupported' | undefined;

/** The kind named by the first `nameEnd` characters of `text`, without cutting them out when the last one matches. */
function kindAt(text: string, nameEnd: number): Kind | 'unsupported' | undefined {
  let same = nameEnd === lastName.length;
  for (let i = 0; same && i < nameEnd; i++) same = text.charCodeAt(i) === lastName.charCodeAt(i);
  if (same) return lastKind;
  lastName = text.slice(0, nameEnd);
  lastKind = kindOf(lastName);
  return lastKind;
}

/** Whether a character is one `trim` removes (white space and line ends; past 127: the regular expression's `\s`). */
const isTrimmed = (c: number) => c === 32 || (c >= 9 && c <= 13) || (c > 127 && /\s/.test(String.fromCharCode(c)));

/** `text.slice(from).trim()`, one string made where the value has no white space to trim at its end. */
function trimmedFrom(text: string, from: number): string {
  let i = from;
  while (i < text.length && isTrimmed(text.charCodeAt(i))) i++;
  return i < text.length && isTrimmed(text.charCodeAt(text.length - 1)) ? text.slice(i).trim() : text.slice(i);
}

/**
 * Where `KIND:` ends in a text assertion: what `/^([A-Za-z][A-Za-z0-9_-]*)\s*:/` finds (the name's end, the colon),
 * without a match object (a million rows hold a million of them).
 */
function kindEnd(text: string): { nameEnd: number; colon: number } | undefined {
  const c0 = text.charCodeAt(0);
  if (!((c0 >= 65 && c0 <= 90) || (c0 >= 97 && c0 <= 122))) return undefined;
  let i = 1;
  for (
    let c = text.charCodeAt(i);
    (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95 || c === 45;
  )
    c = text.charCodeAt(++i);
  const nameEnd = i;
  for (let c = text.charCodeAt(i); c === 32 || (c >= 9 && c <= 13) || (c > 127 && /\s/.test(text[i]!));)
    c = text.charCodeAt(++i);
  return text.charCodeAt(i) === 58 ? { nameEnd, colon: i } : undefined;
}

/**
 * One assertion written as text: `KIND: VALUE` for a kind we know (promptfoo's names too), else the whole text is
 * what the reply must equal. An empty text is no assertion.
 */
export function assertionOfText(text: string): { assertion?: Assertion; problem?: string } {
  // a text starting with a letter is not blank: the test of a million rows, without a trimmed copy each
  const c0 = text.charCodeAt(0);
  if (!((c0 >= 65 && c0 <= 90) || (c0 >= 97 && c0 <= 122)) && !text.trim()) return {};
  const at = kindEnd(text);
  // a kind that takes no value
  if (!at && /^\s*is-json\s*$/i.test(text)) return { assertion: { 'json-schema': {} } };
  const kind = at ? kindAt(text, at.nameEnd) : undefined;
  if (kind === 'unsupported')
    return {
      problem:
        `"${text.slice(0, at!.nameEnd)}" is a promptfoo assertion with no equivalent here. ` +
        `Write one of: ${[...TEXT_KINDS, ...NUMBER_KINDS].join(', ')}, starts-with, is-json, llm-rubric.`,
    };
  if (!at || !kind) return { assertion: { equals: text } };
  const value = trimmedFrom(text, at.colon + 1);
  return assertionOf(kind.kind, kind.read ? kind.read(value) : value);
}

/** An assertion from its kind and argument (from text, or from promptfoo's `{type, value}`), checked. */
function assertionOf(kind: AssertionType, value: unknown): { assertion?: Assertion; problem?: string } {
  let argument = value;
  if (NUMBER_KINDS.has(kind) && typeof value === 'string') {
    argument = Number(value);
    if (!value.trim() || !Number.isFinite(argument)) return { problem: `"${kind}" needs a number, not "${value}".` };
  }
  // set, not written `{ [kind]: argument }`: V8 makes such a literal slowly, a million rows a million times
  const candidate: Record<string, unknown> = {};
  candidate[kind] = argument;
  if (kind === 'regex' && typeof argument === 'string') {
    try {
      compileRegex(argument);
    } catch (e) {
      const why = e instanceof Error ? e.message.replace(/^Invalid regular expression: /, '') : String(e);
      return { problem: `This regular expression does not compile: ${why}.` };
    }
  }
  // isValidAssertion's test, less what is known of a kind it names (one key, an assertion's, a regex compiled)
  if (schemaIssues(ASSERTION_ARGUMENTS[kind], argument).length)
    return { problem: `"${kind}" cannot take ${JSON.stringify(argument)}.` };
  return { assertion: candidate as Assertion };
}

/** A JSON value's kind, in words. */
const kindOfValue = (v: unknown) =>
  v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : typeof v;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const isVarValue = (v: unknown): v is VarValue =>
  typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/** Sets a key by assignment; "__proto__" is defined, so that it stays a key and does not set the prototype. */
const own = (o: Record<string, unknown>, k: string, v: unknown) => {
  if (k === '__proto__')
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
};

/** What a row's column is: a var, an assertion (`__expected…`), the name (`__description`), or not read. */
type Role = 'var' | 'assertion' | 'name' | 'ignored';

/** What a column is, by its name. */
const roleOf = (key: string): Role =>
  !isSpecialColumn(key) ? 'var' : EXPECTED.test(key) ? 'assertion' : key === DESCRIPTION ? 'name' : 'ignored';

/** The columns (or a row object's keys) last met, and what each is. */
let planned: readonly string[] = [];
let plan: Role[] = [];

/**
 * What each of the keys is: a file's rows have the same ones, planned once, and a CSV row is its fields with no object
 * keyed by column (a million rows: 90 MB less garbage).
 */
function planOf(keys: readonly string[]): Role[] {
  let same = keys.length === planned.length;
  for (let i = 0; same && keys !== planned && i < keys.length; i++) same = keys[i] === planned[i];
  if (!same) {
    planned = keys;
    // a column named twice (an error of the header): the later one is read, as an object keyed by column has it
    const last = new Map(keys.map((k, i) => [k, i]));
    plan = keys.map((k, i) => (last.get(k) === i ? roleOf(k) : 'ignored'));
  }
  return plan;
}

/** The problems of a row that has none: one list for all of them (a million rows, a million lists otherwise). */
const NO_PROBLEMS: readonly RowProblem[] = Object.freeze([]);

/** A row of columns (CSV, TSV, or a JSON row without `vars`) as a case: its keys and their values, in one order. */
function columnsCase(keys: readonly string[], values: readonly unknown[], line: number): RowCase {
  let problems: RowProblem[] | undefined;
  const vars: Record<string, VarValue> = {};
  // made with its first assertion: an empty list's first push gives it room for 16
  let assert: Assertion[] | undefined;
  let name: string | undefined;
  const roles = planOf(keys);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const value = values[i];
    const role = roles[i];
    if (role === 'assertion') {
      if (value === undefined || value === null || value === '') continue;
      if (typeof value !== 'string') {
        (problems ??= []).push({
          key,
          message: `"${key}" holds an assertion as text (KIND: VALUE), not ${typeof value}.`,
        });
        continue;
      }
      const a = assertionOfText(value);
      if (a.assertion) {
        if (assert) assert.push(a.assertion);
        else assert = [a.assertion];
      }
      if (a.problem) (problems ??= []).push({ key, message: `${key}: ${a.problem}` });
    } else if (role === 'name') {
      if (typeof value === 'string' && value.trim()) name = value.trim();
    } else if (role === 'ignored') {
      continue; // another `__` column: ignored, said once for the file
    } else if (isVarValue(value)) own(vars, key, value);
    else
      (problems ??= []).push({
        key,
        message: `The value of "${key}" must be text, a number or true/false, not ${kindOfValue(value)}.`,
      });
  }
  return {
    testCase: testCaseOf(name ?? `row ${line}`, vars, assert),
    named: name !== undefined,
    problems: problems ?? NO_PROBLEMS,
  };
}

/** A case of a name, vars and assertions (none: no `assert`). */
function testCaseOf(name: string, vars: Record<string, VarValue>, assert: Assertion[] | undefined): TestCase {
  // a literal of each shape: a key added after, V8 keeps in a store of its own, one more object a row
  return assert?.length ? { name, vars, assert } : { name, vars };
}

/** The keys of a case object. */
const CASE_KEYS = new Set(['name', 'description', 'vars', 'assert']);

/** A JSON row with `vars`: a case object. */
function objectCase(row: Record<string, unknown>, line: number): RowCase {
  const problems: RowProblem[] = [];
  const rawName = typeof row.name === 'string' && row.name.trim() ? row.name : row.description;
  const name = typeof rawName === 'string' && rawName.trim() ? rawName.trim() : undefined;
  if (row.name !== undefined && typeof row.name !== 'string')
    problems.push({ key: 'name', message: '"name" must be text.' });
  const vars: Record<string, VarValue> = {};
  if (!isObject(row.vars)) problems.push({ key: 'vars', message: '"vars" must be an object of values by name.' });
  else
    for (const [k, v] of Object.entries(row.vars)) {
      if (isVarValue(v)) own(vars, k, v);
      else problems.push({ key: k, message: `The value of "${k}" must be text, a number or true/false.` });
    }
  const assert: Assertion[] = [];
  if (row.assert !== undefined && row.assert !== null && !Array.isArray(row.assert))
    problems.push({ key: 'assert', message: '"assert" must be a list of assertions.' });
  if (Array.isArray(row.assert))
    row.assert.forEach((a: unknown, i) => {
      const read = assertionItem(a);
      if (read.assertion) assert.push(read.assertion);
      else
        problems.push({ key: 'assert', message: `Item ${i + 1} of "assert": ${read.problem ?? 'not an assertion'}` });
    });
  const ignoredKeys = Object.keys(row).filter(k => !CASE_KEYS.has(k));
  return {
    testCase: testCaseOf(name ?? `row ${line}`, vars, assert),
    named: name !== undefined,
    problems,
    ...(ignoredKeys.length ? { ignoredKeys } : {}),
  };
}

/** An item of a case object's `assert`: ours (`{contains: x}`), promptfoo's (`{type, value}`), or text. */
function assertionItem(a: unknown): { assertion?: Assertion; problem?: string } {
  if (typeof a === 'string') return assertionOfText(a);
  if (!isObject(a)) return { problem: 'an assertion is an object with one key (contains, regex, rubric…).' };
  if (typeof a.type === 'string') {
    const kind = kindOf(a.type);
    if (kind === 'unsupported' || !kind) return { problem: `"${a.type}" is not an assertion kind Promptwright runs.` };
    if (kind.kind === 'rubric' && typeof a.threshold === 'number' && typeof a.value === 'string')
      return assertionOf('rubric', { criteria: a.value, threshold: a.threshold });
    return assertionOf(kind.kind, kind.read ? kind.read(typeof a.value === 'string' ? a.value : '') : a.value);
  }
  if (isValidAssertion(a)) return { assertion: a };
  const key = Object.keys(a)[0];
  return { problem: key ? `"${key}" is not an assertion with a valid argument.` : 'an empty assertion.' };
}

/** A dataset's record as a case: CSV and TSV rows, and JSON Lines and JSON items. */
export function caseOfRecord(value: unknown, line: number, columns?: string[]): RowCase {
  if (columns) return columnsCase(columns, value as string[], line);
  if (!isObject(value))
    return {
      named: false,
      problems: [{ message: 'A row must be a JSON object: its keys are the values of the placeholders.' }],
    };
  return 'vars' in value ? objectCase(value, line) : columnsCase(Object.keys(value), Object.values(value), line);
}
