// The two corpora of real request bodies, and how the validator does on them: test/fixtures/accepted (the
// service answered 200: no error allowed) and test/fixtures/rejected (it answered 400 for the body alone:
// each must get its error where the service's message points). Used by the unit tests and by the trust
// report of `npm run bench`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { RuleId } from '../../../src/core/request/catalog';
import type { Path } from '../../../src/core/request/types';
import { validateText } from '../../../src/core/request/validate';

const ACCEPTED_DIR = path.join('test', 'fixtures', 'accepted');
export const REJECTED_DIR = path.join('test', 'fixtures', 'rejected');
/** The date the corpora are checked at (models past their retirement are errors after it). */
const CORPUS_NOW = new Date('2026-11-21T00:00:00Z');

export interface RejectedEntry {
  file: string;
  rule: string;
  message: string;
  path: Path;
  models?: string[];
  sources: { url: string; requestId?: string; date?: string; kind: string }[];
  evidence: string;
  notes?: string;
  /** a body too large to commit: the value at `path` is replaced by the base64 of a PNG of `bytes` bytes */
  generate?: { path: Path; kind: 'png'; bytes: number };
}

/**
 * The corpus names a rule by the service's message; where the validator's rule has another name (an existing
 * rule that covers it, or a shorter name), this says which. Every other entry's rule is the validator's.
 */
export const RULE_NAMES: Readonly<Record<string, RuleId>> = {
  'messages-empty': 'empty-messages',
  'unknown-top-level-field': 'foreign-field',
  'tool-result-without-use': 'orphan-tool-result',
  'tool-result-not-in-previous-turn': 'orphan-tool-result',
  'tool-use-ids-not-unique': 'duplicate-tool-use-id',
  'tool-use-input-not-object': 'wrong-type',
  'thinking-block-missing-in-tool-turn': 'tool-turn-without-thinking',
  'thinking-in-final-turn-without-thinking': 'thinking-blocks-without-thinking',
  'budget-tokens-not-below-max-tokens': 'budget-exceeds-max-tokens',
  'adaptive-thinking-unsupported': 'manual-thinking-expected',
  'effort-level-unavailable': 'effort-unavailable',
  'image-media-type-invalid': 'invalid-value',
  'too-many-images': 'too-much-media',
  'duplicate-tool-names': 'duplicate-tool-name',
  'tool-input-schema-missing-type': 'missing-field',
  'tool-input-schema-missing': 'missing-field',
  'tool-input-schema-boolean': 'wrong-type',
  'tool-input-schema-type-not-object': 'invalid-value',
  'tool-input-schema-top-level-combinator': 'input-schema-combinator',
  'strict-tool-additional-properties-missing': 'strict-schema-not-closed',
  'tool-unknown-type': 'unknown-type',
  'web-search-allowed-and-blocked-domains': 'exclusive-domains',
  'structured-output-additional-properties-missing': 'output-schema-not-closed',
  'structured-output-additional-properties-true': 'output-schema-not-closed',
  'structured-output-oneof': 'output-schema-oneof',
  'structured-output-max-items': 'output-schema-max-items',
  'metadata-user-id-email': 'user-id-email',
  'system-role-in-messages': 'beta-feature',
};

/**
 * Entries flagged with a warning at their place, not an error, and why (their RULES.md sections say so too).
 */
export const WARNINGS: Readonly<Record<string, string>> = {
  'system-role-in-messages':
    'refused only without a beta header, which a request file cannot show (beta-feature, as every beta feature)',
};

export function rejectedEntries(): RejectedEntry[] {
  return JSON.parse(fs.readFileSync(path.join(REJECTED_DIR, 'manifest.json'), 'utf8')) as RejectedEntry[];
}

function acceptedFiles(): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(ACCEPTED_DIR, 'manifest.json'), 'utf8')) as { file: string }[];
  return manifest.map(e => e.file);
}

/** A PNG of exactly `bytes` bytes: signature, a 1x1 IHDR chunk, then zeros (only its header is ever read). */
function pngOfSize(bytes: number): string {
  const b = Buffer.alloc(bytes);
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ', 'base64').copy(b);
  return b.toString('base64');
}

/** The entry's body as text, with its `generate` applied. */
function rejectedText(e: RejectedEntry): string {
  const text = fs.readFileSync(path.join(REJECTED_DIR, e.file), 'utf8');
  if (!e.generate) return text;
  const body = JSON.parse(text) as Record<string | number, unknown>;
  const at = e.generate.path;
  let holder = body;
  for (const seg of at.slice(0, -1)) holder = holder[seg] as Record<string | number, unknown>;
  holder[at[at.length - 1]!] = pngOfSize(e.generate.bytes);
  return JSON.stringify(body, null, 2);
}

export interface Verdict {
  /** the rule the validator reports it under */
  code: RuleId;
  /** an error with that code at the entry's path */
  placed: boolean;
  /** a warning with that code at the entry's path, for an entry of WARNINGS */
  warned: boolean;
  /** what the validator reported, as `severity code @ path` */
  got: string[];
}

export function judgeRejected(e: RejectedEntry): Verdict {
  const code = RULE_NAMES[e.rule] ?? (e.rule as RuleId);
  const where = e.path.join('/');
  const problems = validateText(rejectedText(e), 'json', { now: CORPUS_NOW }).problems;
  const at = (severity: string) =>
    problems.some(p => p.code === code && p.severity === severity && p.path.join('/') === where);
  return {
    code,
    placed: at('error'),
    warned: e.rule in WARNINGS && at('warning'),
    got: problems.map(p => `${p.severity} ${p.code} @ ${p.path.join('/')}`),
  };
}

/** The errors the validator reports on an accepted body (none is right). */
function acceptedErrors(file: string): string[] {
  const text = fs.readFileSync(path.join(ACCEPTED_DIR, file), 'utf8');
  return validateText(text, 'json', { now: CORPUS_NOW })
    .problems.filter(p => p.severity === 'error')
    .map(p => `${p.code} @ ${p.path.join('/')}: ${p.message}`);
}

export interface TrustFigures {
  accepted: { clean: number; total: number; failures: string[] };
  rejected: { placed: number; warned: number; total: number; failures: string[] };
}

/** Both corpora at once: accepted bodies free of errors, rejected bodies flagged at the right place. */
export function trustFigures(): TrustFigures {
  const files = acceptedFiles();
  const acceptedFailures = files.flatMap(f => acceptedErrors(f).map(x => `${f}: ${x}`));
  const dirty = new Set(acceptedFailures.map(x => x.split(':')[0]));
  const entries = rejectedEntries();
  const verdicts = entries.map(e => ({ e, v: judgeRejected(e) }));
  return {
    accepted: { clean: files.length - dirty.size, total: files.length, failures: acceptedFailures },
    rejected: {
      placed: verdicts.filter(x => x.v.placed).length,
      warned: verdicts.filter(x => x.v.warned).length,
      total: entries.length,
      failures: verdicts
        .filter(x => !x.v.placed && !x.v.warned)
        .map(x => `${x.e.file}: no ${x.v.code} at ${x.e.path.join('/')} (got ${x.v.got.join('; ') || 'nothing'})`),
    },
  };
}
