// The catalog: the service's model list merged over the built-in table (core/models/table.ts), the
// service winning where both speak. The service speaks to the context window (`max_input_tokens`), the
// ceiling of `max_tokens`, effort levels, thinking types and image and PDF input; the table to what the list
// does not show (retirement, prefill, sampling, how thinking defaults). An alias takes the entry of the model
// it points to, as the service resolves it; a retired model stays retired whatever the list says.
import { EFFORTS, lookupModel, MODELS, type ModelFacts, type ModelInfo, type ModelLookup } from './table';
import type { ServiceModel } from './types';

/** A model a list offers (completion, Choose Model…): the id to write, and the facts that apply. */
export interface CatalogEntry {
  id: string;
  info: ModelInfo;
  /** for an alias: the id the service answers it with */
  aliasOf?: string;
}

/** The context window of a model the service lists without one, and the table does not know (doc1 §8). */
const STANDARD_WINDOW = 200_000;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;
/** What a `{supported: boolean}` says, or undefined when it says nothing. */
const said = (c: unknown): boolean | undefined =>
  isObj(c) && typeof c.supported === 'boolean' ? c.supported : undefined;

export class ModelCatalog implements ModelFacts {
  private readonly byId = new Map<string, ServiceModel>();
  /** rules look a model up for every file checked: once per id is enough */
  private readonly memo = new Map<string, ModelLookup>();

  constructor(readonly models: readonly ServiceModel[]) {
    for (const m of models) if (!this.byId.has(m.id)) this.byId.set(m.id, m);
  }

  /**
   * The service's record for an id: its own, or for an alias the newest listed model it names (a dated id
   * of it, or one the built-in table files under it: `model-opus-4-0` names `model-opus-4-20250514`).
   */
  resolve(id: string): ServiceModel | undefined {
    const own = this.byId.get(id);
    if (own) return own;
    let best: ServiceModel | undefined;
    for (const m of this.models) {
      const dated = m.id.length === id.length + 9 && m.id.startsWith(`${id}-`) && /^\d{8}$/.test(m.id.slice(-8));
      if (!dated && lookupModel(m.id).info?.base !== id) continue;
      // the list is newest first; created_at decides when it says otherwise
      if (!best || (m.created_at ?? '') > (best.created_at ?? '')) best = m;
    }
    return best;
  }

  lookup(id: string): ModelLookup {
    let found = this.memo.get(id);
    if (!found) {
      found = this.merged(id);
      this.memo.set(id, found);
    }
    return found;
  }

  private merged(id: string): ModelLookup {
    const table = lookupModel(id);
    if (table.info?.status === 'retired') return table;
    const m = this.resolve(id);
    if (!m) return table;
    // an alias the table does not know may still be filed under the model it points to
    const known = table.info ?? lookupModel(m.id).info;
    return { info: merge(id, known, m), match: m.id === id ? 'exact' : 'alias' };
  }

  /** What completion and Choose Model… offer: each listed model, then the table's aliases of listed models. */
  entries(): CatalogEntry[] {
    const out: CatalogEntry[] = [];
    for (const m of this.byId.values()) out.push({ id: m.id, info: this.lookup(m.id).info! });
    for (const t of MODELS) {
      if (t.status === 'retired' || this.byId.has(t.id)) continue;
      const r = this.resolve(t.id);
      if (r) out.push({ id: t.id, info: this.lookup(t.id).info!, aliasOf: r.id });
    }
    return out;
  }
}

/** What the lists offer with no catalog: the built-in table's models that are not retired. */
export function builtinEntries(): CatalogEntry[] {
  return MODELS.filter(m => m.status !== 'retired').map(m => ({ id: m.id, info: m }));
}

function merge(id: string, table: ModelInfo | undefined, m: ServiceModel): ModelInfo {
  const info: ModelInfo = {
    ...(table ?? {
      status: 'active',
      thinking: 'any',
      contextWindow: STANDARD_WINDOW,
      prefill: true,
      temperatureAndTopPExclusive: false,
    }),
    id,
    service: m,
  };
  if (m.id !== id) info.resolved = m.id;
  if (typeof m.display_name === 'string' && m.display_name) info.displayName = m.display_name;
  if (isCount(m.max_input_tokens)) info.contextWindow = m.max_input_tokens;
  if (isCount(m.max_tokens)) info.maxOutputTokens = m.max_tokens;
  // read as untyped data: a record that came over the network or from a file
  const caps: unknown = m.capabilities;
  if (!isObj(caps)) return info;
  const effort = isObj(caps.effort) ? caps.effort : undefined;
  const offered = said(effort);
  if (offered === false) delete info.effort;
  else if (effort && offered) {
    // a level the list does not mention keeps what the table says of it (nothing known: not refused)
    const before = table?.effort;
    info.effort = EFFORTS.filter(l => said(effort[l]) ?? (before ? before.includes(l) : true));
  }
  const thinking = isObj(caps.thinking) ? caps.thinking : undefined;
  const thinks = said(thinking);
  if (thinks === false) info.thinkingTypes = { adaptive: false, enabled: false };
  else if (thinking && thinks) {
    const types = isObj(thinking.types) ? thinking.types : {};
    const mode = table?.thinking;
    info.thinkingTypes = {
      adaptive: said(types.adaptive) ?? mode !== 'manual',
      enabled: said(types.enabled) ?? !(mode === 'adaptive-only' || mode === 'adaptive-default'),
    };
  }
  const image = said(caps.image_input);
  if (image !== undefined) info.imageInput = image;
  const pdf = said(caps.pdf_input);
  if (pdf !== undefined) info.pdfInput = pdf;
  return info;
}

/** The names people read for the capabilities of the public API. */
const CAPABILITY_NAMES: Record<string, string> = {
  thinking: 'thinking',
  effort: 'effort',
  image_input: 'image input',
  pdf_input: 'PDF input',
  citations: 'citations',
  code_execution: 'code execution',
  structured_outputs: 'structured outputs',
  batch: 'batches',
  context_management: 'context management',
};

/**
 * The capabilities of a model in words, one line each ("thinking: adaptive, enabled", "image input: yes"):
 * every capability the service's record has, or, without one, what the built-in table knows.
 */
export function capabilityLines(info: ModelInfo): string[] {
  const caps = info.service?.capabilities;
  const yes = (b: boolean | undefined) => (b === undefined ? 'not known' : b ? 'yes' : 'no');
  const thinking = (): string => {
    if (info.thinkingTypes) {
      const types = (['adaptive', 'enabled'] as const).filter(t => info.thinkingTypes![t]);
      return types.length ? types.join(', ') : 'no';
    }
    return info.thinking === 'manual'
      ? 'enabled (budget_tokens)'
      : info.thinking === 'adaptive-only' || info.thinking === 'adaptive-default'
        ? 'adaptive'
        : info.thinking === 'adaptive-default-no-disable'
          ? 'adaptive (always on)'
          : 'adaptive, enabled';
  };
  const effort = () => (info.effort ? info.effort.join(', ') || 'no level' : 'no');
  if (!isObj(caps)) return [`thinking: ${thinking()}`, `effort: ${effort()}`];
  const lines: string[] = [];
  for (const [key, value] of Object.entries(caps)) {
    const name = CAPABILITY_NAMES[key] ?? key.replace(/_/g, ' ');
    if (key === 'thinking') lines.push(`thinking: ${thinking()}`);
    else if (key === 'effort') lines.push(`effort: ${effort()}`);
    else if (said(value) !== undefined) lines.push(`${name}: ${yes(said(value))}`);
  }
  return lines;
}

/**
 * A saved or received model list checked before it is used: the output of `promptwright models --format
 * json` (an array), a page of `GET /v1/models` (`{data: […]}`) or one model. Returns the models, or why
 * the value is not a model list.
 */
export function parseModelList(value: unknown): { models: ServiceModel[] } | { error: string } {
  const list = Array.isArray(value)
    ? value
    : isObj(value) && Array.isArray(value.data)
      ? value.data
      : isObj(value) && typeof value.id === 'string'
        ? [value]
        : undefined;
  if (!list) {
    return {
      error:
        'not a list of models: expected the output of `promptwright models --format json` ' +
        '(an array of {"type": "model", "id": …} objects)',
    };
  }
  const models: ServiceModel[] = [];
  for (let i = 0; i < list.length; i++) {
    const m: unknown = list[i];
    const problem = modelProblem(m);
    if (problem) return { error: `model ${i + 1} of ${list.length}: ${problem}` };
    models.push(m as ServiceModel);
  }
  return { models };
}

function modelProblem(m: unknown): string | undefined {
  if (!isObj(m)) return `not an object (${JSON.stringify(m) ?? String(m)})`;
  if (typeof m.id !== 'string' || !m.id.trim()) return 'no "id" (a non-empty string)';
  const at = `"${m.id}"`;
  if (m.type !== undefined && m.type !== 'model') return `${at}: "type" is ${JSON.stringify(m.type)}, not "model"`;
  for (const k of ['max_input_tokens', 'max_tokens']) {
    const v = m[k];
    if (v !== undefined && v !== null && !isCount(v)) return `${at}: "${k}" must be a positive whole number or null`;
  }
  for (const k of ['display_name', 'created_at']) {
    if (m[k] !== undefined && m[k] !== null && typeof m[k] !== 'string') return `${at}: "${k}" must be a string`;
  }
  const caps = m.capabilities;
  if (caps !== undefined && caps !== null && !isObj(caps)) return `${at}: "capabilities" must be an object or null`;
  return undefined;
}
