// The beta features a file uses (betas.ts): a warning naming the beta when none that enables it is configured.
import {
  BETA_FIELDS,
  BETA_NESTED,
  betaMessage,
  CONTAINER_OBJECT,
  enabled,
  FAST_MODE,
  FILE_SOURCE,
  type BetaFeature,
} from '../betas';
import { changeToFixes } from '../enumFixes';
import type { FixData, Path, PathProblem } from '../types';
import { given, isObj, type Obj, type RuleContext } from './common';

const SERVICE_TIERS = ['auto', 'standard_only'];

/** Warns once per use of a beta feature whose beta is not configured. */
export function betaUsed(
  feature: BetaFeature,
  path: Path,
  anchor: 'key' | 'value',
  ctx: RuleContext,
  out: PathProblem[],
): void {
  const [beta] = feature.betas;
  if (beta === undefined) {
    out.push({ path, anchor, severity: 'warning', code: 'outside-spec', message: betaMessage(feature) });
    return;
  }
  if (enabled(feature, ctx.betas)) return;
  const fixes: FixData[] = [{ kind: 'add-beta', title: `Add the beta "${beta}" to promptwright.betas`, beta }];
  out.push({ path, anchor, severity: 'warning', code: 'beta-feature', message: betaMessage(feature), fixes });
}

/**
 * Image and document blocks with a `file` source: the block `messages[i].content[j]`, or inside its content (a
 * tool_result's). Paths are built only for what is found: this runs for every block that may hold one.
 */
export function fileSources(block: Obj, i: number, j: number, ctx: RuleContext, out: PathProblem[]): void {
  if (isFile(block)) betaUsed(FILE_SOURCE, ['messages', i, 'content', j, 'source', 'type'], 'value', ctx, out);
  if (block.type !== 'tool_result' || !Array.isArray(block.content)) return;
  for (let k = 0; k < block.content.length; k++) {
    if (isFile(block.content[k]))
      betaUsed(FILE_SOURCE, ['messages', i, 'content', j, 'content', k, 'source', 'type'], 'value', ctx, out);
  }
}

const isFile = (b: unknown) =>
  isObj(b) && (b.type === 'image' || b.type === 'document') && isObj(b.source) && b.source.type === 'file';

/** doc1 §2.1 (speed, diagnostics), §8 (the retired 1M beta), doc3 §9.2 (betas), fields outside the spec. */
export function betaRules(body: Obj, ctx: RuleContext, out: PathProblem[]): void {
  for (const [field, feature] of Object.entries(BETA_FIELDS))
    if (given(body[field])) betaUsed(feature, [field], 'key', ctx, out);
  for (const [parent, fields] of Object.entries(BETA_NESTED)) {
    const p = body[parent];
    if (!isObj(p)) continue;
    for (const [field, feature] of Object.entries(fields))
      if (given(p[field])) betaUsed(feature, [parent, field], 'key', ctx, out);
  }
  if (isObj(body.container)) betaUsed(CONTAINER_OBJECT, ['container'], 'key', ctx, out);
  if (body.speed === 'fast') betaUsed(FAST_MODE, ['speed'], 'value', ctx, out);
  else if (typeof body.speed === 'string' && body.speed !== 'standard') {
    out.push({
      path: ['speed'],
      anchor: 'value',
      severity: 'warning',
      code: 'unknown-value',
      message:
        'The spec names one speed value, "fast" (the public SDKs add "standard"); ' +
        `"${body.speed}" may be rejected.`,
      fixes: changeToFixes(['speed'], body.speed, ['fast', 'standard']),
    });
  }
  if (typeof body.service_tier === 'string' && !SERVICE_TIERS.includes(body.service_tier)) {
    out.push({
      path: ['service_tier'],
      anchor: 'value',
      severity: 'warning',
      code: 'unknown-value',
      message:
        `service_tier is documented by the service (not the spec) as "auto" or "standard_only"; ` +
        `"${body.service_tier}" may be rejected.`,
      fixes: changeToFixes(['service_tier'], body.service_tier, SERVICE_TIERS),
    });
  }
  if (given(body.diagnostics) && !ctx.betas.includes('cache-diagnosis-2026-04-07')) {
    out.push({
      path: ['diagnostics'],
      anchor: 'key',
      severity: 'info',
      code: 'cache-diagnosis-beta',
      message:
        'The response reports a cache_miss_reason only with the beta "cache-diagnosis-2026-04-07" ' +
        '(setting promptwright.betas).',
      fixes: [
        {
          kind: 'add-beta',
          title: 'Add the beta "cache-diagnosis-2026-04-07" to promptwright.betas',
          beta: 'cache-diagnosis-2026-04-07',
        },
      ],
    });
  }
  if (
    typeof body.model === 'string' &&
    ctx.betas.includes('context-1m-2025-08-07') &&
    /^model-sonnet-4-(5|0|20250514)/.test(body.model)
  ) {
    out.push({
      path: ['model'],
      anchor: 'value',
      severity: 'warning',
      code: 'retired-1m-beta',
      message:
        'The 1M-context beta for this model is retired: the header context-1m-2025-08-07 has no effect and ' +
        'requests over 200k tokens return an error.',
    });
  }
}
