// The rules that a schema cannot say: per-model rules (from the table in models.ts, or the service's model
// list merged over it when the context has one), rules across fields, the beta features a file uses
// (betas.ts), and the rules from public reports of the service's own 400 messages
// (test/fixtures/rejected), one file per family. Spec sources: doc1 = seed 000 (messages), doc3 = seed 002
// (platform); each check cites its section, or says it comes from reports. `null` counts as absent everywhere,
// as the service reads it.
import type { PathProblem } from '../types';
import { betaRules } from './betas';
import { cacheRules } from './cache';
import { isObj, type RuleContext } from './common';
import { metadataRules, stopSequenceRules, structuredOutputRules } from './fields';
import { mediaRules } from './media';
import { messageRules } from './messages';
import { modelRules, speedRules } from './model';
import { samplingRules } from './sampling';
import { SchemaTrees } from './schemas';
import { strictSchemaRules } from './strict';
import { effortAndThinking, thinkingRules } from './thinking';
import { toolRules } from './tools';

export type { RuleContext } from './common';

export function checkRules(body: unknown, ctx: RuleContext): PathProblem[] {
  const out: PathProblem[] = [];
  if (!isObj(body)) return out;
  const model = typeof body.model === 'string' ? body.model : undefined;
  const info = model !== undefined ? modelRules(model, ctx, out) : undefined;
  messageRules(body, info, ctx, out);
  cacheRules(body, out);
  mediaRules(body, info, ctx, out);
  if (info) effortAndThinking(body, info, out);
  if (info) speedRules(body, info, out);
  thinkingRules(body, info, out);
  samplingRules(body, info, ctx, out);
  // a tool's schema and an output schema are read by two families each: walked once for both
  const trees = new SchemaTrees();
  toolRules(body, ctx, trees, out);
  structuredOutputRules(body, trees, out);
  strictSchemaRules(body, trees, out);
  metadataRules(body, out);
  stopSequenceRules(body, out);
  betaRules(body, ctx, out);
  return out;
}
