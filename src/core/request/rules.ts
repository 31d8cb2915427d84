// The spec's rules that a schema cannot say: per-model rules (from the table in models.ts) and rules
// across fields. Each problem's code cites the rule: doc1 = seed 000 (messages), doc3 = seed 002 (platform).
import { CURRENT_MODELS, lookupModel, nearestEffort, type ModelInfo } from './models';
import { BUILTIN_TOOL_NAMES, EFFORTS, type Effort } from './schema';
import type { FixData, Path, PathProblem } from './types';

export interface RuleContext {
  /** today, for scheduled retirements */
  now: Date;
  /** the vendor-beta values the user has configured */
  betas: readonly string[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const BLOCK_ARRAYS_WITH_PARENT_CACHE = new Set(['tool_result', 'document-content']);

export function checkRules(body: unknown, ctx: RuleContext): PathProblem[] {
  const out: PathProblem[] = [];
  if (!isObj(body)) return out;
  const model = typeof body.model === 'string' ? body.model : undefined;
  const info = model !== undefined ? modelRules(model, ctx, out) : undefined;
  messageRules(body, info, out);
  if (info) effortAndThinking(body, info, out);
  samplingRules(body, info, out);
  toolRules(body, out);
  metadataRules(body, out);
  betaRules(body, ctx, out);
  return out;
}

function modelRules(model: string, ctx: RuleContext, out: PathProblem[]): ModelInfo | undefined {
  const { info, match } = lookupModel(model);
  const replace = (why: string): FixData[] => CURRENT_MODELS.map(m => ({ kind: 'replace-value', title: `Use ${m}${why}`, path: ['model'], value: m }));
  if (!info) {
    out.push({ path: ['model'], anchor: 'value', severity: 'info', code: 'doc1§2.1-model', message: `"${model}" is not a model id the spec lists. The field takes any string, so it is allowed, but model rules cannot be checked.` });
    return undefined;
  }
  if (info.status === 'retired') {
    out.push({ path: ['model'], anchor: 'value', severity: 'error', code: 'doc3§9.4-retired', message: `${model} is retired: requests to it return an error.`, fixes: replace('') });
  } else if (info.status === 'deprecated') {
    const date = info.retires ? new Date(`${info.retires}T00:00:00Z`) : undefined;
    const when = date ? date.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }) : '';
    if (date && ctx.now >= date) {
      out.push({ path: ['model'], anchor: 'value', severity: 'error', code: 'doc3§9.4-deprecated', message: `${model} is deprecated and its retirement was scheduled for ${when}: requests to it are expected to fail.`, fixes: replace('') });
    } else {
      out.push({ path: ['model'], anchor: 'value', severity: 'warning', code: 'doc3§9.4-deprecated', message: `${model} is deprecated${when ? `; retirement is scheduled for ${when}` : ''}.`, fixes: replace('') });
    }
  }
  if (match === 'dated' && info.base) {
    out.push({ path: ['model'], anchor: 'value', severity: 'hint', code: 'doc1§2.1-model', message: `Dated id not listed in the spec; checked with the rules of ${info.base}.` });
  }
  return info;
}

function messageRules(body: Obj, info: ModelInfo | undefined, out: PathProblem[]): void {
  const msgs = body.messages;
  if (!Array.isArray(msgs)) return;
  const toolUseIds = new Set<string>();
  const serverToolUseIds = new Set<string>();
  let prevRole: unknown;
  msgs.forEach((m, i) => {
    if (!isObj(m)) return;
    if (i > 0 && m.role === prevRole && (m.role === 'user' || m.role === 'assistant')) {
      out.push({ path: ['messages', i, 'role'], anchor: 'value', severity: 'warning', code: 'doc1§2.2-r1', message: `Two ${String(m.role)} turns in a row: the service combines consecutive turns of the same role into one. Alternate user and assistant turns.` });
    }
    prevRole = m.role;
    if (!Array.isArray(m.content)) return;
    m.content.forEach((b, j) => {
      if (!isObj(b)) return;
      const at: Path = ['messages', i, 'content', j];
      if (b.type === 'tool_use' && typeof b.id === 'string') toolUseIds.add(b.id);
      if (b.type === 'server_tool_use' && typeof b.id === 'string') serverToolUseIds.add(b.id);
      if (b.type === 'tool_result' && typeof b.tool_use_id === 'string' && !toolUseIds.has(b.tool_use_id)) {
        const known = [...toolUseIds];
        const fixes: FixData[] = known.slice(-10).reverse().map(id => ({ kind: 'replace-value', title: `Use tool_use id "${id}"`, path: [...at, 'tool_use_id'], value: id }));
        out.push({ path: [...at, 'tool_use_id'], anchor: 'value', severity: 'error', code: 'doc1§2.4-tool_result', message: `tool_use_id "${b.tool_use_id}" matches no tool_use block earlier in the conversation${known.length ? ` (known: ${known.slice(-5).map(x => `"${x}"`).join(', ')}${known.length > 5 ? ', …' : ''})` : ''}.`, ...(fixes.length ? { fixes } : {}) });
      }
      if (typeof b.type === 'string' && b.type.endsWith('_tool_result') && b.type !== 'tool_result' && typeof b.tool_use_id === 'string' && !serverToolUseIds.has(b.tool_use_id)) {
        out.push({ path: [...at, 'tool_use_id'], anchor: 'value', severity: 'warning', code: 'doc1§2.4-server-tool', message: `tool_use_id "${b.tool_use_id}" matches no server_tool_use block earlier in the conversation.` });
      }
      nestedCacheControl(b, at, out);
      citationRules(b, at, out);
    });
  });
  if (info && !info.prefill) {
    const last = msgs[msgs.length - 1];
    if (isObj(last) && last.role === 'assistant') {
      out.push({ path: ['messages', msgs.length - 1, 'role'], anchor: 'value', severity: 'error', code: 'doc1§2.2-r4', message: `${info.id} does not support prefilling assistant messages: the last message must not be an assistant turn.` });
    }
  }
}

/** doc1 §2.3: cache_control on nested blocks only on the last block of tool_result.content / document.source.content. */
function nestedCacheControl(block: Obj, at: Path, out: PathProblem[]): void {
  const check = (arr: unknown, arrPath: Path, parentKind: string) => {
    if (!Array.isArray(arr)) return;
    arr.forEach((child, k) => {
      if (!isObj(child)) return;
      if (child.cache_control !== undefined) {
        const isLast = k === arr.length - 1;
        if (!(BLOCK_ARRAYS_WITH_PARENT_CACHE.has(parentKind) && isLast)) {
          out.push({
            path: [...arrPath, k, 'cache_control'], anchor: 'key', severity: 'error', code: 'doc1§2.3',
            message: BLOCK_ARRAYS_WITH_PARENT_CACHE.has(parentKind)
              ? 'cache_control on a nested block is only allowed on the last block (it then applies to the parent). Move it to the parent block.'
              : 'cache_control is not allowed on this nested block; put it on the parent block.',
            fixes: [{ kind: 'remove-property', title: 'Remove this cache_control', path: [...arrPath, k, 'cache_control'] }],
          });
        }
      }
      if (child.type === 'document') checkDocument(child, [...arrPath, k]);
    });
  };
  const checkDocument = (doc: Obj, p: Path) => {
    const src = doc.source;
    if (isObj(src) && src.type === 'content') check(src.content, [...p, 'source', 'content'], 'document-content');
  };
  if (block.type === 'tool_result') check(block.content, [...at, 'content'], 'tool_result');
  if (block.type === 'document') checkDocument(block, at);
  if (block.type === 'search_result') check(block.content, [...at, 'content'], 'search_result');
}

function citationRules(block: Obj, at: Path, out: PathProblem[]): void {
  if (block.type !== 'text' || !Array.isArray(block.citations)) return;
  block.citations.forEach((c, k) => {
    if (!isObj(c)) return;
    if ((c.type === 'content_block_location' || c.type === 'search_result_location') && typeof c.start_block_index === 'number' && typeof c.end_block_index === 'number' && c.end_block_index <= c.start_block_index) {
      out.push({ path: [...at, 'citations', k, 'end_block_index'], anchor: 'value', severity: 'error', code: 'doc1§2.5', message: `end_block_index (${c.end_block_index}) must be greater than start_block_index (${c.start_block_index}): the end is exclusive.` });
    }
  });
}

function effortAndThinking(body: Obj, info: ModelInfo, out: PathProblem[]): void {
  const oc = body.output_config;
  const effort = isObj(oc) && typeof oc.effort === 'string' && (EFFORTS as readonly string[]).includes(oc.effort) ? (oc.effort as Effort) : undefined;
  if (effort) {
    if (!info.effort) {
      out.push({ path: ['output_config', 'effort'], anchor: 'value', severity: 'error', code: 'doc1§4.3-r1', message: `${info.id} does not support effort. Effort is supported by model-mythos-preview, model-opus-4-7, model-opus-4-6, model-sonnet-4-6 and model-opus-4-5.`, fixes: [{ kind: 'remove-property', title: 'Remove effort', path: ['output_config', 'effort'] }] });
    } else if (!info.effort.includes(effort)) {
      const near = nearestEffort(effort, info.effort);
      const who = effort === 'xhigh' ? 'only model-opus-4-7' : 'model-mythos-preview, model-opus-4-7, model-opus-4-6 and model-sonnet-4-6';
      out.push({ path: ['output_config', 'effort'], anchor: 'value', severity: 'error', code: 'doc1§4.3', message: `Effort "${effort}" is not available on ${info.id} (it is available on ${who}). Supported here: ${info.effort.join(', ')}.`, ...(near ? { fixes: [{ kind: 'replace-value', title: `Use effort "${near}"`, path: ['output_config', 'effort'], value: near }] } : {}) });
    }
    if (info.id.startsWith('model-opus-4-7') || info.base === 'model-opus-4-7') {
      if ((effort === 'xhigh' || effort === 'max') && typeof body.max_tokens === 'number' && body.max_tokens < 64000) {
        out.push({ path: ['max_tokens'], anchor: 'value', severity: 'info', code: 'doc1§4.3-r8', message: `With effort "${effort}" on model-opus-4-7 a large max_tokens is advised (64k as a starting point); this request has ${body.max_tokens}.`, fixes: [{ kind: 'replace-value', title: 'Set max_tokens to 64000', path: ['max_tokens'], value: 64000 }] });
      }
    }
  }
  const th = body.thinking;
  if (!isObj(th)) return;
  const toAdaptive: FixData = { kind: 'replace-value', title: 'Use adaptive thinking', path: ['thinking'], value: { type: 'adaptive' } };
  if (info.thinking === 'adaptive-default-no-disable' && th.type === 'disabled') {
    out.push({ path: ['thinking', 'type'], anchor: 'value', severity: 'error', code: 'doc1§4.3-r4', message: `${info.id} thinks adaptively by default; thinking {type: disabled} is rejected.`, fixes: [{ kind: 'remove-property', title: 'Remove thinking', path: ['thinking'] }] });
  }
  if (info.thinking === 'adaptive-only' && th.type === 'enabled') {
    out.push({ path: ['thinking', 'type'], anchor: 'value', severity: 'error', code: 'doc1§4.3-r5', message: `${info.id} uses adaptive thinking; manual thinking {type: enabled, budget_tokens} is no longer supported.`, fixes: [toAdaptive] });
  }
  if (info.thinking === 'adaptive-preferred' && th.type === 'enabled') {
    out.push({ path: ['thinking', 'budget_tokens'], anchor: 'key', severity: 'warning', code: 'doc1§4.3-r6', message: `On ${info.id} budget_tokens is accepted but deprecated; adaptive thinking is recommended.`, fixes: [toAdaptive] });
  }
  if (info.thinking === 'manual' && th.type === 'adaptive') {
    out.push({ path: ['thinking', 'type'], anchor: 'value', severity: 'warning', code: 'doc1§4.3-r7', message: `${info.id} uses manual thinking: {type: enabled, budget_tokens: N}.`, fixes: [{ kind: 'replace-value', title: 'Use manual thinking with a budget', path: ['thinking'], value: { type: 'enabled', budget_tokens: 4096 } }] });
  }
}

function samplingRules(body: Obj, info: ModelInfo | undefined, out: PathProblem[]): void {
  if (info?.temperatureAndTopPExclusive && body.temperature !== undefined && body.top_p !== undefined) {
    const fixes: FixData[] = [
      { kind: 'remove-property', title: 'Remove top_p (keep temperature)', path: ['top_p'] },
      { kind: 'remove-property', title: 'Remove temperature (keep top_p)', path: ['temperature'] },
    ];
    out.push({ path: ['temperature'], anchor: 'key', severity: 'error', code: 'doc1§2.2-r5', message: `${info.id} does not allow temperature and top_p together; give only one.`, fixes });
    out.push({ path: ['top_p'], anchor: 'key', severity: 'error', code: 'doc1§2.2-r5', message: `${info.id} does not allow temperature and top_p together; give only one.`, fixes });
  }
  const th = body.thinking;
  if (isObj(th) && th.type === 'enabled' && typeof body.top_p === 'number' && (body.top_p < 0.95 || body.top_p > 1)) {
    out.push({ path: ['top_p'], anchor: 'value', severity: 'error', code: 'doc3§9.5', message: `With extended thinking top_p may be 0.95 to 1; it is ${body.top_p}.` });
  }
  if (isObj(th) && th.type === 'enabled' && typeof th.budget_tokens === 'number' && typeof body.max_tokens === 'number' && th.budget_tokens >= body.max_tokens && body.max_tokens > 0) {
    out.push({ path: ['thinking', 'budget_tokens'], anchor: 'value', severity: 'warning', code: 'doc1§2.1-thinking', message: `budget_tokens (${th.budget_tokens}) is not below max_tokens (${body.max_tokens}): thinking counts toward max_tokens, so no room is left for the answer.` });
  }
  if (body.max_tokens === 0) {
    out.push({ path: ['max_tokens'], anchor: 'value', severity: 'info', code: 'doc1§2.1', message: 'max_tokens 0 fills the prompt cache without generating a response.' });
  }
}

function toolRules(body: Obj, out: PathProblem[]): void {
  if (!Array.isArray(body.tools)) return;
  const seen = new Map<string, number>();
  body.tools.forEach((t, i) => {
    if (!isObj(t)) return;
    const at: Path = ['tools', i];
    if (typeof t.name === 'string') {
      if (seen.has(t.name)) out.push({ path: [...at, 'name'], anchor: 'value', severity: 'error', code: 'doc1§2.6', message: `Tool name "${t.name}" is already used by tools[${seen.get(t.name)}]; tool names must be unique.` });
      else seen.set(t.name, i);
    }
    const fixed = typeof t.type === 'string' ? BUILTIN_TOOL_NAMES[t.type] : undefined;
    if (fixed && t.name === undefined) {
      out.push({ path: at, anchor: 'container', severity: 'error', code: 'doc1§2.6', message: `Missing required field "name": built-in tool ${String(t.type)} is always named "${fixed}".`, fixes: [{ kind: 'insert-property', title: `Add "name": "${fixed}"`, path: at, key: 'name', value: fixed }] });
    }
    if (t.allowed_domains !== undefined && t.blocked_domains !== undefined) {
      out.push({ path: [...at, 'blocked_domains'], anchor: 'key', severity: 'error', code: 'doc1§2.6', message: 'allowed_domains and blocked_domains are mutually exclusive: give only one.', fixes: [{ kind: 'remove-property', title: 'Remove blocked_domains', path: [...at, 'blocked_domains'] }, { kind: 'remove-property', title: 'Remove allowed_domains', path: [...at, 'allowed_domains'] }] });
    }
    const loc = t.user_location;
    if (isObj(loc)) {
      if (typeof loc.country === 'string' && !/^[A-Za-z]{2}$/.test(loc.country)) {
        out.push({ path: [...at, 'user_location', 'country'], anchor: 'value', severity: 'error', code: 'doc1§2.6', message: `country must be a two-letter ISO country code such as "US" or "FR"; got "${loc.country}".` });
      }
      if (typeof loc.timezone === 'string' && !isIanaZone(loc.timezone)) {
        out.push({ path: [...at, 'user_location', 'timezone'], anchor: 'value', severity: 'warning', code: 'doc1§2.6', message: `"${loc.timezone}" is not an IANA time zone this system knows (e.g. "Europe/Paris").` });
      }
    }
  });
}

let zones: Set<string> | undefined;
function isIanaZone(z: string): boolean {
  try {
    zones ??= new Set((Intl as unknown as { supportedValuesOf(k: string): string[] }).supportedValuesOf('timeZone'));
    if (zones.has(z) || z === 'UTC') return true;
    new Intl.DateTimeFormat('en-US', { timeZone: z });
    return true;
  } catch {
    return false;
  }
}

function metadataRules(body: Obj, out: PathProblem[]): void {
  const md = body.metadata;
  if (isObj(md) && typeof md.user_id === 'string' && EMAIL.test(md.user_id.trim())) {
    out.push({ path: ['metadata', 'user_id'], anchor: 'value', severity: 'warning', code: 'doc1§2.1-metadata', message: 'metadata.user_id looks like an e-mail address; it should be an opaque value such as a uuid or a hash.' });
  }
}

function betaRules(body: Obj, ctx: RuleContext, out: PathProblem[]): void {
  if (body.speed === 'fast' && !ctx.betas.includes('fast-mode-2026-02-01')) {
    out.push({ path: ['speed'], anchor: 'value', severity: 'info', code: 'doc1§2.1-speed', message: 'Fast mode needs the beta "fast-mode-2026-02-01" (add it to the setting promptwright.betas).' });
  } else if (typeof body.speed === 'string' && body.speed !== 'fast') {
    out.push({ path: ['speed'], anchor: 'value', severity: 'warning', code: 'doc1§2.1-speed', message: `The spec names one speed value, "fast"; "${body.speed}" may be rejected.` });
  }
  if (body.diagnostics !== undefined && !ctx.betas.includes('cache-diagnosis-2026-04-07')) {
    out.push({ path: ['diagnostics'], anchor: 'key', severity: 'info', code: 'doc1§2.1-diagnostics', message: 'The response reports a cache_miss_reason only with the beta "cache-diagnosis-2026-04-07" (setting promptwright.betas).' });
  }
  if (typeof body.model === 'string' && ctx.betas.includes('context-1m-2025-08-07') && /^model-sonnet-4-(5|0|20250514)/.test(body.model)) {
    out.push({ path: ['model'], anchor: 'value', severity: 'warning', code: 'doc1§8', message: 'The 1M-context beta for this model is retired: the header context-1m-2025-08-07 has no effect and requests over 200k tokens return an error.' });
  }
}
