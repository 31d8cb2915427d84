// Prompt test cases: a case file (`*.cases.yaml` / `*.cases.json`) names a request file, the
// models to run it on, and cases, each with values for the request's `{{name}}` placeholders and
// assertions on the reply. These are the shapes the core, the CLI (`promptwright test`) and the editor's
// Cases grid share.
import type { Message, Usage } from '../api/types';

/** A placeholder's value: written as text into the request's strings. */
export type VarValue = string | number | boolean;

/** One assertion, as written in a case file: one key, its argument. */
export type Assertion =
  | { contains: string }
  | { icontains: string }
  | { 'not-contains': string }
  | { regex: string }
  | { equals: string }
  | { stop_reason: string }
  | { 'max-output-tokens': number }
  | { 'max-input-tokens': number }
  | { 'max-latency-ms': number }
  | { 'json-schema': Record<string, unknown> }
  | { 'tool-call': string };

/** The assertion kinds, in the order the README lists them. */
export const ASSERTION_TYPES = [
  'contains',
  'icontains',
  'not-contains',
  'regex',
  'equals',
  'stop_reason',
  'max-output-tokens',
  'max-input-tokens',
  'max-latency-ms',
  'json-schema',
  'tool-call',
] as const;
export type AssertionType = (typeof ASSERTION_TYPES)[number];

export interface TestCase {
  name: string;
  vars?: Record<string, VarValue>;
  assert?: Assertion[];
}

export interface CaseFile {
  /** the request file, relative to the case file */
  request: string;
  /** default: the request's own model */
  models?: string[];
  cases: TestCase[];
}

/** A `{{name}}` in a text, with its offsets (UTF-16 code units) including the braces. */
export interface Placeholder {
  name: string;
  start: number;
  end: number;
}

/** What one run of a case on a model produced: what the assertions look at. */
export interface Outcome {
  message?: Message;
  /** the reply's text blocks joined */
  text: string;
  usage?: Usage;
  stopReason?: string | null;
  latencyMs?: number;
  requestId?: string;
  /** the request failed (the service's error.type, message and request-id), or was cancelled */
  error?: { type: string; message: string; requestId?: string };
}

export interface AssertionResult {
  type: AssertionType;
  pass: boolean;
  /** what was expected and what came, for a failure; a short confirmation for a pass */
  message: string;
  /**
   * For a failure that compares two texts or values, both in full (the Test Explorer shows them as a diff):
   * the expected text, pattern, reason or bound, and what the reply had.
   */
  expected?: string;
  actual?: string;
}

/** One cell of the matrix: a case on a model. */
export interface CellKey {
  caseName: string;
  model: string;
}

export type CellStatus = 'queued' | 'running' | 'passed' | 'failed' | 'error' | 'cancelled';

export interface CellResult extends CellKey {
  status: CellStatus;
  pass: boolean;
  assertions: AssertionResult[];
  outcome: Outcome;
}
