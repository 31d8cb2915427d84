// temperature, top_p, top_k and max_tokens, per model and with thinking.
import type { ModelInfo } from '../models';
import type { FixData, PathProblem } from '../types';
import { given, isObj, type Obj } from './common';

/** doc1 §2.2 rule 5, doc3 §9.5 (top_p with thinking), §2.1 (max_tokens 0). */
export function samplingRules(body: Obj, info: ModelInfo | undefined, out: PathProblem[]): void {
  if (info?.temperatureAndTopPExclusive && given(body.temperature) && given(body.top_p)) {
    const fixes: FixData[] = [
      { kind: 'remove-property', title: 'Remove top_p (keep temperature)', path: ['top_p'] },
      { kind: 'remove-property', title: 'Remove temperature (keep top_p)', path: ['temperature'] },
    ];
    const message = `${info.id} does not allow temperature and top_p together; give only one.`;
    out.push({
      path: ['temperature'],
      anchor: 'key',
      severity: 'error',
      code: 'temperature-with-top-p',
      message,
      fixes,
    });
    out.push({ path: ['top_p'], anchor: 'key', severity: 'error', code: 'temperature-with-top-p', message, fixes });
  }
  if (info?.temperatureAndTopPReported && given(body.temperature) && given(body.top_p)) {
    out.push({
      path: ['top_p'],
      anchor: 'key',
      severity: 'warning',
      code: 'sampling-unsupported',
      message:
        `Users report that ${info.base ?? info.id} refuses temperature and top_p together (the spec says so only ` +
        'for model-opus-4-1); give only one.',
      fixes: [{ kind: 'remove-property', title: 'Remove top_p (keep temperature)', path: ['top_p'] }],
    });
  }
  if (info?.fixedSampling) fixedSamplingRules(body, info, out);
  const th = body.thinking;
  const manual = isObj(th) && th.type === 'enabled';
  if (manual && typeof body.top_p === 'number' && (body.top_p < 0.95 || body.top_p > 1)) {
    out.push({
      path: ['top_p'],
      anchor: 'value',
      severity: 'error',
      code: 'top-p-with-thinking',
      message: `With extended thinking top_p may be 0.95 to 1; it is ${body.top_p}.`,
    });
  }
  const budget = manual ? th.budget_tokens : undefined;
  if (
    typeof budget === 'number' &&
    typeof body.max_tokens === 'number' &&
    budget >= body.max_tokens &&
    body.max_tokens > 0
  ) {
    out.push({
      path: ['thinking', 'budget_tokens'],
      anchor: 'value',
      severity: 'warning',
      code: 'budget-exceeds-max-tokens',
      message:
        `budget_tokens (${budget}) is not below max_tokens (${body.max_tokens}): thinking counts toward ` +
        'max_tokens, so no room is left for the answer.',
    });
  }
  if (body.max_tokens === 0) {
    out.push({
      path: ['max_tokens'],
      anchor: 'value',
      severity: 'info',
      code: 'max-tokens-zero',
      message: 'max_tokens 0 fills the prompt cache without generating a response.',
    });
  }
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
      fixes: [{ kind: 'remove-property', title: `Remove ${field}`, path: [field] }],
    });
  if (typeof body.temperature === 'number' && body.temperature !== 1) warn('temperature', 'takes temperature 1 only');
  if (given(body.top_k)) warn('top_k', 'does not take top_k');
  if (typeof body.top_p === 'number' && body.top_p < 0.99) warn('top_p', 'takes top_p of 0.99 or more only');
}
