// What every family of rules shares: the shape of a JSON object, how `null` is read, and where a problem sits.
import type { ModelFacts } from '../../models/table';
import type { PathProblem } from '../types';

export interface RuleContext {
  /** today, for scheduled retirements */
  now: Date;
  /** the vendor-beta values the user has configured */
  betas: readonly string[];
  /** the service's model list merged over the built-in table (core/models/catalog.ts); absent: the table */
  models?: ModelFacts;
}

export type Obj = Record<string, unknown>;
export type Place = Pick<PathProblem, 'path' | 'anchor'>;
export const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
/** Present and not null: the service reads `null` as absent. */
export const given = (v: unknown) => v !== undefined && v !== null;
