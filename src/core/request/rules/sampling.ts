// temperature, top_p, top_k, max_tokens and the thinking budget: their ranges, per model (models.ts), and with
// thinking. Beyond the spec, the rules come from reports of the service's own messages (RULES.md, Evidence).
import type { ModelInfo } from '../../models/table';
import type { FixData, PathProblem } from '../types';
import { given, type Obj, type RuleContext } from './common';
import { thinkingOf } from './thinking';
import { thousands } from '../../text';

/** The least budget_tokens the service takes ("Input should be greater than or equal to 1024"). */
const MIN_BUDGET = 1024;
/** With this beta, thinking between tool calls may use more than max_tokens in one assistant turn. */
const INTERLEAVED = 'interleaved-thinking-2025-05-14';
/** Betas that raise the most output tokens a model may be asked for (doc3 §9.2): no ceiling is known then. */
const LONGER_OUTPUT = ['output-128k-2025-02-19', 'output-300k-2026-03-24'];

const remove = (field: string): FixData => ({ kind: 'remove-property', title: `Remove ${field}`, path: [field] });

/**
 * Given, and not -1: 2025 recordings show the service answering 200 to top_k and top_p of -1 (read as unset), so
 * the rules that refuse a given top_k or top_p leave -1 to sampling-minus-one, a warning.
 */
const sampled = (v: unknown) => given(v) && v !== -1;

/** doc1 §2.2 rule 5, doc3 §9.5 (top_p with thinking), §2.1 (max_tokens 0). */
export function samplingRules(body: Obj, info: ModelInfo | undefined, ctx: RuleContext, out: PathProblem[]): void {
  const { temperature, top_p: topP } = body;
  if (info?.temperatureAndTopPExclusive && given(temperature) && sampled(topP)) {
    const fixes: FixData[] = [
      { kind: 'remove-property', title: 'Remove top_p (keep temperature)', path: ['top_p'] },
      { kind: 'remove-property', title: 'Remove temperature (keep top_p)', path: ['temperature'] },
    ];
    const message = `${info.id} does not allow temperature and top_p together; give only one.`;
    for (const field of ['temperature', 'top_p'])
      out.push({ path: [field], anchor: 'key', severity: 'error', code: 'temperature-with-top-p', message, fixes });
  }
  if (info?.samplingDeprecated) deprecatedSampling(body, info, out);
  if (info?.fixedSampling) fixedSamplingRules(body, info, out);
  minusOne(body, out);
  for (const [field, value] of [
    ['temperature', temperature],
    ['top_p', topP],
  ] as const) {
    if (typeof value !== 'number' || (value >= 0 && value <= 1) || (field === 'top_p' && value === -1)) continue;
    const near = value < 0 ? 0 : 1;
    out.push({
      path: [field],
      anchor: 'value',
      severity: 'error',
      code: field === 'temperature' ? 'temperature-out-of-range' : 'top-p-out-of-range',
      message: `${field} must be between 0 and 1; it is ${value}.`,
      fixes: [{ kind: 'replace-value', title: `Set ${field} to ${near}`, path: [field], value: near }],
    });
  }
  if (thinkingOf(body, info) === 'manual') manualThinking(body, info, ctx, out);
  const max = body.max_tokens;
  const limit = info?.maxOutputTokens;
  const longer = LONGER_OUTPUT.some(b => ctx.betas.includes(b));
  if (info && typeof max === 'number' && limit !== undefined && max > limit && !longer) {
    const from = info.service ? " (its max_tokens in the service's model list)" : '';
    out.push({
      path: ['max_tokens'],
      anchor: 'value',
      severity: 'error',
      code: 'max-tokens-above-model-limit',
      message:
        `max_tokens ${thousands(max)} is above ${thousands(limit)}, the most output ` +
        `tokens ${info.base ?? info.resolved ?? info.id} generates${from}.`,
      fixes: [{ kind: 'replace-value', title: `Set max_tokens to ${limit}`, path: ['max_tokens'], value: limit }],
    });
  }
  if (max === 0) {
    out.push({
      path: ['max_tokens'],
      anchor: 'value',
      severity: 'info',
      code: 'max-tokens-zero',
      message: 'max_tokens 0 fills the prompt cache without generating a response.',
    });
  }
}

/** Manual thinking (`enabled` with budget_tokens): its budget, and the sampling settings it does not take. */
function manualThinking(body: Obj, info: ModelInfo | undefined, ctx: RuleContext, out: PathProblem[]): void {
  const { temperature, top_p: topP, top_k: topK, max_tokens: max } = body;
  if (typeof topP === 'number' && topP !== -1 && (topP < 0.95 || topP > 1)) {
    out.push({
      path: ['top_p'],
      anchor: 'value',
      severity: 'error',
      code: 'top-p-with-thinking',
      message: `With extended thinking top_p may be 0.95 to 1; it is ${topP}.`,
    });
  }
  if (typeof temperature === 'number' && temperature !== 1) {
    out.push({
      path: ['temperature'],
      anchor: 'key',
      severity: 'error',
      code: 'thinking-with-temperature',
      message: `With thinking enabled, temperature may only be 1 (it is ${temperature}): remove it, or set it to 1.`,
      fixes: [remove('temperature')],
    });
  }
  if (sampled(topK)) {
    out.push({
      path: ['top_k'],
      anchor: 'key',
      severity: 'error',
      code: 'thinking-with-top-k',
      message: 'With thinking enabled, top_k must be unset.',
      fixes: [remove('top_k')],
    });
  }
  const th = body.thinking as Obj;
  const budget = th.budget_tokens;
  if (typeof budget !== 'number' || budget < 0) return;
  const onBudget = ['thinking', 'budget_tokens'];
  if (budget < MIN_BUDGET) {
    out.push({
      path: onBudget,
      anchor: 'value',
      severity: 'error',
      code: 'budget-tokens-below-minimum',
      message: `budget_tokens must be at least ${MIN_BUDGET}; it is ${budget}.`,
      fixes: [
        { kind: 'replace-value', title: `Set budget_tokens to ${MIN_BUDGET}`, path: onBudget, value: MIN_BUDGET },
      ],
    });
  }
  if (typeof max !== 'number' || max <= 0 || budget < max || ctx.betas.includes(INTERLEAVED)) return;
  // the lower budget keeps room for the answer; without room under max_tokens, max_tokens is raised
  const fixes: FixData[] = [];
  if (max > MIN_BUDGET) {
    const value = Math.max(MIN_BUDGET, Math.floor(max / 2));
    fixes.push({ kind: 'replace-value', title: `Set budget_tokens to ${value}`, path: onBudget, value });
  } else if (info?.maxOutputTokens === undefined || budget + MIN_BUDGET <= info.maxOutputTokens) {
    const value = budget + MIN_BUDGET;
    fixes.push({ kind: 'replace-value', title: `Set max_tokens to ${value}`, path: ['max_tokens'], value });
  }
  out.push({
    path: onBudget,
    anchor: 'value',
    severity: 'error',
    code: 'budget-exceeds-max-tokens',
    message:
      `max_tokens (${max}) must be greater than thinking.budget_tokens (${budget}): thinking counts toward ` +
      'max_tokens, and the answer needs room too.',
    ...(fixes.length ? { fixes } : {}),
  });
}

/** Reports of the service's messages: on these models temperature other than 1, top_p and top_k are refused. */
function deprecatedSampling(body: Obj, info: ModelInfo, out: PathProblem[]): void {
  const model = info.base ?? info.id;
  const refuse = (field: string, code: PathProblem['code'], what: string) =>
    out.push({
      path: [field],
      anchor: 'key',
      severity: 'error',
      code,
      message: `${field} is deprecated for ${model}: ${what}`,
      fixes: [remove(field)],
    });
  if (typeof body.temperature === 'number' && body.temperature !== 1)
    refuse('temperature', 'temperature-deprecated', 'the service takes only temperature 1. Remove it.');
  if (info.samplingDeprecated === 'temperature') return;
  if (sampled(body.top_p)) refuse('top_p', 'top-p-deprecated', 'the service refuses it at any value. Remove it.');
  if (sampled(body.top_k)) refuse('top_k', 'top-k-deprecated', 'the service refuses it at any value. Remove it.');
}

/** Outside the spec: the public SDKs say models after model-opus-4-6 take temperature 1, no top_k, top_p >= 0.99. */
function fixedSamplingRules(body: Obj, info: ModelInfo, out: PathProblem[]): void {
  const warn = (field: string, what: string) =>
    out.push({
      path: [field],
      anchor: 'key',
      severity: 'warning',
      code: 'sampling-unsupported',
      message:
        `The public SDKs document that ${info.base ?? info.id} ${what}; the service may refuse this request ` +
        '(the spec does not say so).',
      fixes: [remove(field)],
    });
  // a temperature the reports show refused is an error already (deprecatedSampling)
  if (typeof body.temperature === 'number' && body.temperature !== 1 && !info.samplingDeprecated)
    warn('temperature', 'takes temperature 1 only');
  if (sampled(body.top_k)) warn('top_k', 'does not take top_k');
  if (typeof body.top_p === 'number' && body.top_p !== -1 && body.top_p < 0.99)
    warn('top_p', 'takes top_p of 0.99 or more only');
}

/**
 * top_k or top_p of -1, and a negative top_k: 2025 recordings show -1 answered with 200 (the service read it as
 * unset); no report shows what it does today, nor with a negative top_k other than -1. A warning, with a fix.
 */
function minusOne(body: Obj, out: PathProblem[]): void {
  for (const field of ['top_k', 'top_p'] as const) {
    const v = body[field];
    if (typeof v !== 'number' || !(v === -1 || (field === 'top_k' && v < 0))) continue;
    out.push({
      path: [field],
      anchor: 'value',
      severity: 'warning',
      code: 'sampling-minus-one',
      message:
        `${field} ${v}: recordings of 2025 show the service taking ${field} -1 as unset, but no report says it ` +
        `still does (temperature -1 is refused since 2026). Leave ${field} out for the default.`,
      fixes: [remove(field)],
    });
  }
}
