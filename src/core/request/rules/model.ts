// The model: retired, deprecated, unknown, or a dated id that follows its model (models.ts, or the service's
// model list merged over it: a model the list has is never unknown).
import { fastModels, lookupModel, replacementsFor, type ModelInfo } from '../models';
import type { FixData, PathProblem } from '../types';
import type { Obj, Place, RuleContext } from './common';

/** doc1 §2.1 (ids), doc3 §9.4 (retired and deprecated models). */
export function modelRules(model: string, ctx: RuleContext, out: PathProblem[]): ModelInfo | undefined {
  const { info, match } = ctx.models ? ctx.models.lookup(model) : lookupModel(model);
  const replace = (): FixData[] =>
    replacementsFor(model).map(m => ({ kind: 'replace-value', title: `Use ${m}`, path: ['model'], value: m }));
  const at: Place = { path: ['model'], anchor: 'value' };
  if (!info) {
    out.push({
      ...at,
      severity: 'info',
      code: 'unknown-model',
      message:
        `"${model}" is not a model id the spec lists${ctx.models ? ", nor one the service's model list has" : ''}. ` +
        'The field takes any string, so it is allowed, but model rules cannot be checked.',
    });
    return undefined;
  }
  if (info.status === 'retired') {
    const how = match === 'retired-family' ? ' (its model family is retired)' : '';
    out.push({
      ...at,
      severity: 'error',
      code: 'retired-model',
      message: `${model} is retired${how}: requests to it return an error.`,
      fixes: replace(),
    });
  } else if (info.status === 'deprecated') {
    const date = info.retires ? new Date(`${info.retires}T00:00:00Z`) : undefined;
    const opts = { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' } as const;
    const when = date ? date.toLocaleDateString('en-US', opts) : '';
    if (date && ctx.now >= date) {
      out.push({
        ...at,
        severity: 'error',
        code: 'retired-model',
        fixes: replace(),
        message:
          `${model} was deprecated and its retirement was scheduled for ${when}: ` +
          'requests to it are expected to fail.',
      });
    } else {
      const message = `${model} is deprecated${when ? `; retirement is scheduled for ${when}` : ''}.`;
      out.push({ ...at, severity: 'warning', code: 'deprecated-model', message, fixes: replace() });
    }
  }
  if (match === 'dated' && info.base) {
    out.push({
      ...at,
      severity: 'hint',
      code: 'dated-model',
      message: `Dated id not listed in the spec; checked with the rules of ${info.base}.`,
    });
  }
  return info;
}

/**
 * `speed: "fast"` on a model the table says has no fast mode: the service refuses it naming the model
 * ("'<model>' does not support the speed parameter"). Models whose fast mode is not known are not judged.
 */
export function speedRules(body: Obj, info: ModelInfo, out: PathProblem[]): void {
  if (body.speed !== 'fast' || info.fastMode !== false) return;
  const model = info.base ?? info.id;
  out.push({
    path: ['speed'],
    anchor: 'value',
    severity: 'error',
    code: 'speed-unsupported',
    message:
      `${model} does not support the speed parameter: fast mode is for ${fastModels().join(' and ')}. Remove ` +
      'speed, or use one of those models.',
    fixes: [
      { kind: 'remove-property', title: 'Remove speed', path: ['speed'] },
      ...fastModels().map((m): FixData => ({ kind: 'replace-value', title: `Use ${m}`, path: ['model'], value: m })),
    ],
  });
}
