// Effort and extended thinking, per model (models.ts).
import { nearestEffort, type ModelInfo } from '../models';
import { EFFORTS, type Effort } from '../schema';
import type { FixData, PathProblem } from '../types';
import { isObj, type Obj, type Place } from './common';

/** doc1 §4.3 rules 1 and 4-8. */
export function effortAndThinking(body: Obj, info: ModelInfo, out: PathProblem[]): void {
  const oc = body.output_config;
  const wanted = isObj(oc) ? oc.effort : undefined;
  const effort =
    typeof wanted === 'string' && (EFFORTS as readonly string[]).includes(wanted) ? (wanted as Effort) : undefined;
  if (effort) effortRules(body, info, effort, out);
  const th = body.thinking;
  if (!isObj(th)) return;
  const toAdaptive: FixData = {
    kind: 'replace-value',
    title: 'Use adaptive thinking',
    path: ['thinking'],
    value: { type: 'adaptive' },
  };
  const onType: Place = { path: ['thinking', 'type'], anchor: 'value' };
  if (info.thinking === 'adaptive-default-no-disable' && th.type === 'disabled') {
    out.push({
      ...onType,
      severity: 'error',
      code: 'thinking-disabled-rejected',
      message: `${info.id} thinks adaptively by default; thinking {type: disabled} is rejected.`,
      fixes: [{ kind: 'remove-property', title: 'Remove thinking', path: ['thinking'] }],
    });
  }
  if (info.thinking === 'adaptive-only' && th.type === 'enabled') {
    out.push({
      ...onType,
      severity: 'error',
      code: 'manual-thinking-unsupported',
      fixes: [toAdaptive],
      message:
        `${info.id} uses adaptive thinking; ` +
        'manual thinking {type: enabled, budget_tokens} is no longer supported.',
    });
  }
  if (info.thinking === 'adaptive-preferred' && th.type === 'enabled') {
    out.push({
      path: ['thinking', 'budget_tokens'],
      anchor: 'key',
      severity: 'warning',
      code: 'budget-tokens-deprecated',
      message: `On ${info.id} budget_tokens is accepted but deprecated; adaptive thinking is recommended.`,
      fixes: [toAdaptive],
    });
  }
  if (info.thinking === 'manual' && th.type === 'adaptive') {
    // a budget below max_tokens, so the fix does not trade one warning for another
    const max = typeof body.max_tokens === 'number' ? body.max_tokens : 8192;
    const value = { type: 'enabled', budget_tokens: Math.max(1024, Math.min(4096, Math.floor(max / 2))) };
    out.push({
      ...onType,
      severity: 'warning',
      code: 'manual-thinking-expected',
      message: `${info.id} uses manual thinking: {type: enabled, budget_tokens: N}.`,
      fixes: [{ kind: 'replace-value', title: 'Use manual thinking with a budget', path: ['thinking'], value }],
    });
  }
}

function effortRules(body: Obj, info: ModelInfo, effort: Effort, out: PathProblem[]): void {
  const at: Place = { path: ['output_config', 'effort'], anchor: 'value' };
  if (!info.effort) {
    out.push({
      ...at,
      severity: 'error',
      code: 'effort-unsupported',
      message:
        `${info.id} does not support effort. Effort is supported by model-mythos-preview, model-opus-4-7, ` +
        'model-opus-4-6, model-sonnet-4-6 and model-opus-4-5.',
      fixes: [{ kind: 'remove-property', title: 'Remove effort', path: ['output_config', 'effort'] }],
    });
  } else if (!info.effort.includes(effort)) {
    const near = nearestEffort(effort, info.effort);
    const who =
      effort === 'xhigh'
        ? 'model-opus-4-7 only'
        : 'model-mythos-preview, model-opus-4-7, model-opus-4-6 and model-sonnet-4-6';
    out.push({
      ...at,
      severity: 'error',
      code: 'effort-unavailable',
      message:
        `Effort "${effort}" is not available on ${info.id} (it is available on ${who}). ` +
        `Supported here: ${info.effort.join(', ')}.`,
      ...(near
        ? { fixes: [{ kind: 'replace-value', title: `Use effort "${near}"`, path: at.path, value: near }] }
        : {}),
    });
  }
  const isOpus47 = info.id.startsWith('model-opus-4-7') || info.base === 'model-opus-4-7';
  if (
    isOpus47 &&
    (effort === 'xhigh' || effort === 'max') &&
    typeof body.max_tokens === 'number' &&
    body.max_tokens < 64000
  ) {
    out.push({
      path: ['max_tokens'],
      anchor: 'value',
      severity: 'info',
      code: 'effort-max-tokens',
      message:
        `With effort "${effort}" on model-opus-4-7 a large max_tokens is advised (64k as a starting point); ` +
        `this request has ${body.max_tokens}.`,
      fixes: [{ kind: 'replace-value', title: 'Set max_tokens to 64000', path: ['max_tokens'], value: 64000 }],
    });
  }
}
