// Prompt test cases: a case file (`*.cases.yaml` / `*.cases.json`) names a request file, the
// models to run it on, and cases, each with values for the request's `{{name}}` placeholders and
// assertions on the reply. These are the shapes the core, the CLI (`promptwright test`) and the editor's
// Cases grid share.
import type { Message, Usage } from '../api/types';
import type { ToolsSpec } from '../tools/answers';
import type { McpServerConfig } from '../tools/mcpConfig';
import type { ToolCallRecord, TurnRecord } from '../tools/loop';

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
  | { 'tool-call': string }
  | { rubric: string | Rubric }
  | { 'max-cost': number }
  | { 'tool-called': string | { name: string; input?: unknown } }
  | { 'tool-not-called': string }
  | { 'tool-sequence': string[] }
  | { 'max-turns': number };

/** A rubric graded by a model (core/cases/judge.ts): what the reply must do, and optionally a model answer. */
export interface Rubric {
  criteria: string;
  /** a reply that meets the criteria, for the judge to compare with */
  reference?: string;
  /** the judge's score (0 to 1) must be at least this too */
  threshold?: number;
}

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
  'rubric',
  'max-cost',
  'tool-called',
  'tool-not-called',
  'tool-sequence',
  'max-turns',
] as const;
export type AssertionType = (typeof ASSERTION_TYPES)[number];

export interface TestCase {
  name: string;
  vars?: Record<string, VarValue>;
  assert?: Assertion[];
  /** how this case answers tool calls: replaces the file's entries for each tool it names */
  tools?: ToolsSpec;
}

/** The formats a dataset file may have, by its extension. */
export type DatasetFormat = 'csv' | 'tsv' | 'jsonl' | 'json';

/** Who grades the rubric assertions: a model, and optionally a prompt of one's own. */
interface JudgeSettings {
  /** default: the setting promptwright.cases.judgeModel, or PROMPTWRIGHT_JUDGE_MODEL in the CLI */
  model?: string;
  /** a text file (relative to the case file) with {{criteria}}, {{reply}}, {{reference}}, {{input}} */
  prompt?: string;
}

export interface CaseFile {
  /** the request file, relative to the case file */
  request: string;
  /** default: the request's own model */
  models?: string[];
  judge?: JudgeSettings;
  /** samples per cell (default 1) */
  repeat?: number;
  /** samples that must pass every assertion for the cell to pass (default: all of them) */
  minPass?: number;
  /** model requests a cell of a tool-use loop may make (default 10) */
  maxTurns?: number;
  /** how tool calls are answered; a case file with `tools` (or a case with its own) runs its cells as loops */
  tools?: ToolsSpec;
  /** MCP servers of this case file, beside the workspace's `.vscode/mcp.json` (these win by name) */
  mcpServers?: Record<string, McpServerConfig>;
  /** a data file whose rows are cases too, after the listed ones (relative to the case file) */
  dataset?: string;
  /** assertions every case runs before its own, the listed cases' and the dataset's rows' */
  assert?: Assertion[];
  /** the cases listed in the file (empty when they all come from the dataset) */
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
  /** from the request's send (its last attempt) to the reply's last byte */
  latencyMs?: number;
  /**
   * how long it waited before that send: the client's own pacing under the rate limit, retries and their waits
   * (not latency: the service had not been asked yet)
   */
  waitedMs?: number;
  requestId?: string;
  /** the request failed (the service's error.type, message and request-id), or was cancelled */
  error?: OutcomeError;
  /** the Message Batch the request went in (a run as a batch) */
  batchId?: string;
  /**
   * A tool-use loop's: the model requests made (usage, latencyMs and cost are their sums; message, text and
   * stopReason the last reply's), each turn, and every call answered, in order.
   */
  turns?: number;
  turnRecords?: TurnRecord[];
  toolCalls?: ToolCallRecord[];
  /** max-turns ended the loop with the model still calling tools: why (the cell fails) */
  loopLimit?: string;
}

/** Why something could not be done: the service's error.type, message and request-id, or ours. */
export interface OutcomeError {
  type: string;
  message: string;
  requestId?: string;
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
  /**
   * The assertion could not be evaluated (the judge's request failed or its verdict is malformed, no price for
   * max-cost): the sample is an ERROR, never a pass.
   */
  error?: OutcomeError;
  /** a rubric's verdict: the judge's score, and whether it came from the verdict cache (no judge call) */
  score?: number;
  cached?: boolean;
}

/** One cell of the matrix: a case on a model. */
export interface CellKey {
  caseName: string;
  model: string;
}

/**
 * `expired`: the request went in a Message Batch that expired (24 hours) before the request was processed.
 * `skipped`: never sent, because the run stopped before it (a key the service refused, its model not found, the
 * first failure of a fail-fast run); its outcome's error says why.
 */
export type CellStatus = 'queued' | 'running' | 'passed' | 'failed' | 'error' | 'cancelled' | 'expired' | 'skipped';

/** A person's grade of a reply (the grid's 👍 / 👎), kept with the results by the reply's text. */
export interface HumanGrade {
  grade: 'up' | 'down';
  note?: string;
}

/** What a run of a rubric's judge used: its requests' usage summed, and their cost. */
export interface JudgeUsage {
  /** judge requests sent (a verdict from the cache sends none) */
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** US dollars; null when the judge model has no price (`costNote` says so) */
  costUsd: number | null;
  costNote?: string;
}

/** One sample of a cell: one request of the case on the model, judged by every assertion. */
export interface SampleResult {
  status: 'passed' | 'failed' | 'error' | 'cancelled' | 'expired' | 'skipped';
  pass: boolean;
  assertions: AssertionResult[];
  outcome: Outcome;
  /** what the reply cost (judge calls apart); null when unknown (`costNote` says why) */
  costUsd: number | null;
  costNote?: string;
  judge?: JudgeUsage;
  humanGrade?: HumanGrade;
}

export interface CellResult extends CellKey {
  status: CellStatus;
  pass: boolean;
  /** the first sample's (with one sample, the cell's own) */
  assertions: AssertionResult[];
  /** the first sample's */
  outcome: Outcome;
  /** every sample, in order (absent in results saved before samples existed) */
  samples?: SampleResult[];
  /** samples that passed, and how many had to */
  passedSamples?: number;
  minPass?: number;
  /** some samples passed and some did not */
  flaky?: boolean;
  /** the samples' cost summed (null when one is unknown), and their judges' */
  costUsd?: number | null;
  judgeCostUsd?: number | null;
}
