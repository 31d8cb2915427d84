// The models interface of the simulation (doc3 §9.5; the public Messages API for what the spec does not
// show): `GET /v1/models`, newest first in cursor pages of `limit` 1 to 1000 (default 20), and
// `GET /v1/models/{id}`, which answers an alias with the model it points to and an unknown id with a 404.
// The demo lists the built-in table's current models, described as the table describes them; the tests'
// fake adds models the table does not know.
import type { ServiceModel } from '../models/types';
import { EFFORTS, MODELS, type ModelInfo } from '../models/table';
import { cursorPage, notFound, ok, segment, wrongMethod, type Reply, type Walk } from './admin';

/** When the undated models came out (their dated ids carry their date): the list's order, newest first. */
const RELEASED: Record<string, string> = {
  'model-sonnet-5': '2026-06-30',
  'model-opus-4-8': '2026-05-28',
  'model-opus-4-7': '2026-04-16',
  'model-mythos-preview': '2026-04-07',
  'model-sonnet-4-6': '2026-02-17',
  'model-opus-4-6': '2026-02-05',
};
/** Output ceilings of the demo's models where the table has none (public model overviews). */
const DEMO_MAX_TOKENS: Record<string, number> = { 'model-opus-4-1-20250805': 32_000 };

const yes = (supported: boolean) => ({ supported });

/** The name people read: `model-opus-4-7` is "Opus 4.7", `model-haiku-4-5-20251001` "Haiku 4.5". */
function displayName(id: string): string {
  const words = id
    .replace(/^model-/, '')
    .replace(/-\d{8}$/, '')
    .split('-');
  const family = words.shift() ?? '';
  const version = words.every(w => /^\d+$/.test(w)) ? words.join('.') : words.join(' ');
  const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
  return [cap(family), version.replace(/\b[a-z]/g, cap)].filter(Boolean).join(' ');
}

/** A model of the table as the service would describe it. */
function describe(m: ModelInfo): ServiceModel {
  const day = /-(\d{4})(\d\d)(\d\d)$/.exec(m.id);
  const released = day ? `${day[1]}-${day[2]}-${day[3]}` : (RELEASED[m.id] ?? '2026-01-01');
  const manualOnly = m.thinking === 'manual';
  const adaptiveOnly = m.thinking === 'adaptive-only' || m.thinking === 'adaptive-default';
  const effort = Object.fromEntries(EFFORTS.map(l => [l, yes(!!m.effort?.includes(l))]));
  return {
    type: 'model',
    id: m.id,
    display_name: displayName(m.id),
    created_at: `${released}T00:00:00Z`,
    max_input_tokens: m.contextWindow,
    max_tokens: m.maxOutputTokens ?? DEMO_MAX_TOKENS[m.id] ?? 128_000,
    capabilities: {
      thinking: { supported: true, types: { adaptive: yes(!manualOnly), enabled: yes(!adaptiveOnly) } },
      effort: { supported: !!m.effort, ...effort },
      image_input: yes(true),
      pdf_input: yes(true),
      citations: yes(true),
      code_execution: yes(true),
      structured_outputs: yes(true),
      batch: yes(true),
      context_management: yes(true),
    },
  };
}

/**
 * The demo's list: the table's current models under the ids the service lists, a dated id where the table
 * has one (its undated alias resolves to it), newest first.
 */
export function demoModels(): ServiceModel[] {
  const current = MODELS.filter(m => m.status === 'active');
  const listed = current.filter(m => m.base || !current.some(d => d.base === m.id));
  return listed.map(describe).sort((a, b) => (b.created_at ?? '').localeCompare(a.created_at ?? ''));
}

export class SimulatedModels {
  constructor(readonly models: readonly ServiceModel[]) {}

  /** An id, or the newest listed model an alias names (a dated id of it, or one the table files under it). */
  resolve(id: string): ServiceModel | undefined {
    const exact = this.models.find(m => m.id === id);
    if (exact) return exact;
    const under = (m: ServiceModel) =>
      (m.id.startsWith(`${id}-`) && /^\d{8}$/.test(m.id.slice(id.length + 1))) ||
      MODELS.some(t => t.id === m.id && t.base === id);
    return this.models.filter(under).sort((a, b) => (b.created_at ?? '').localeCompare(a.created_at ?? ''))[0];
  }

  handle(method: string, url: URL): Reply | undefined {
    const one = /^\/v1\/models\/([^/]+)$/.exec(url.pathname);
    if (url.pathname !== '/v1/models' && !one) return undefined;
    if (method !== 'GET') return wrongMethod(method, url.pathname, ['GET']);
    if (one) {
      const id = segment(one[1]!);
      const found = this.resolve(id);
      return found ? ok(found) : notFound(`model: ${id} was not found`);
    }
    // a cursor holds a position in the list (its index + 1), never a model id
    const n = this.models.length;
    const walk: Walk<number> = {
      key: i => i + 1,
      *forward(after) {
        for (let i = after ?? 0; i < n; i++) yield i;
      },
      *backward(before) {
        for (let i = before - 2; i >= 0; i--) yield i;
      },
    };
    return cursorPage(walk, url.searchParams, {
      kind: 'models',
      defaultLimit: 20,
      maxLimit: 1000,
      render: i => this.models[i],
    });
  }
}
