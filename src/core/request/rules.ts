// The spec's rules that a schema cannot say: per-model rules (from the table in models.ts), rules across
// fields, and the beta features a file uses (betas.ts). Spec sources: doc1 = seed 000 (messages),
// doc3 = seed 002 (platform); each check cites its section. `null` counts as absent everywhere, as the
// service reads it.
import {
  ADVISOR_CALL,
  BETA_BLOCK_TYPES,
  BETA_FIELDS,
  BETA_NESTED,
  BETA_TOOL_TYPES,
  betaMessage,
  CONTAINER_OBJECT,
  enabled,
  FAST_MODE,
  FILE_SOURCE,
  SYSTEM_ROLE,
  type BetaFeature,
} from './betas';
import { lookupModel, nearestEffort, replacementsFor, type ModelInfo } from './models';
import { EFFORTS, type Effort } from './schema';
import type { FixData, Path, PathProblem } from './types';

export interface RuleContext {
  /** today, for scheduled retirements */
  now: Date;
  /** the vendor-beta values the user has configured */
  betas: readonly string[];
}

type Obj = Record<string, unknown>;
type Place = Pick<PathProblem, 'path' | 'anchor'>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
/** Present and not null: the service reads `null` as absent. */
const given = (v: unknown) => v !== undefined && v !== null;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const BLOCK_ARRAYS_WITH_PARENT_CACHE = new Set(['tool_result', 'document-content']);
const SERVICE_TIERS = ['auto', 'standard_only'];

export function checkRules(body: unknown, ctx: RuleContext): PathProblem[] {
  const out: PathProblem[] = [];
  if (!isObj(body)) return out;
  const model = typeof body.model === 'string' ? body.model : undefined;
  const info = model !== undefined ? modelRules(model, ctx, out) : undefined;
  messageRules(body, info, ctx, out);
  if (info) effortAndThinking(body, info, out);
  samplingRules(body, info, out);
  toolRules(body, ctx, out);
  metadataRules(body, out);
  betaRules(body, ctx, out);
  return out;
}

/** doc1 §2.1 (ids), doc3 §9.4 (retired and deprecated models). */
function modelRules(model: string, ctx: RuleContext, out: PathProblem[]): ModelInfo | undefined {
  const { info, match } = lookupModel(model);
  const replace = (): FixData[] =>
    replacementsFor(model).map(m => ({ kind: 'replace-value', title: `Use ${m}`, path: ['model'], value: m }));
  const at: Place = { path: ['model'], anchor: 'value' };
  if (!info) {
    out.push({
      ...at,
      severity: 'info',
      code: 'unknown-model',
      message:
        `"${model}" is not a model id the spec lists. The field takes any string, so it is allowed, but ` +
        'model rules cannot be checked.',
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

/** doc1 §2.2 rules 1 and 4, §2.3 (nested cache control), §2.4 (tool results), §2.5 (citations). */
function messageRules(body: Obj, info: ModelInfo | undefined, ctx: RuleContext, out: PathProblem[]): void {
  const msgs = body.messages;
  if (!Array.isArray(msgs)) return;
  const toolUseIds = new Set<string>();
  const serverToolUseIds = new Set<string>();
  let prevRole: unknown;
  msgs.forEach((m, i) => {
    if (!isObj(m)) return;
    if (i > 0 && m.role === prevRole && (m.role === 'user' || m.role === 'assistant')) {
      out.push({
        path: ['messages', i, 'role'],
        anchor: 'value',
        severity: 'warning',
        code: 'consecutive-roles',
        message:
          `Two ${String(m.role)} turns in a row: the service combines consecutive turns of the same role into ` +
          'one. Alternate user and assistant turns.',
      });
    }
    prevRole = m.role;
    if (m.role === 'system') betaUsed(SYSTEM_ROLE, ['messages', i, 'role'], 'value', ctx, out);
    if (!Array.isArray(m.content)) return;
    m.content.forEach((b, j) => {
      if (!isObj(b)) return;
      const at: Path = ['messages', i, 'content', j];
      if (b.type === 'tool_use' && typeof b.id === 'string') toolUseIds.add(b.id);
      if ((b.type === 'server_tool_use' || b.type === 'mcp_tool_use') && typeof b.id === 'string')
        serverToolUseIds.add(b.id);
      if (b.type === 'tool_result' && typeof b.tool_use_id === 'string' && !toolUseIds.has(b.tool_use_id)) {
        orphanToolResult(b.tool_use_id, [...toolUseIds], at, out);
      }
      const serverResult = typeof b.type === 'string' && b.type.endsWith('_tool_result') && b.type !== 'tool_result';
      if (serverResult && typeof b.tool_use_id === 'string' && !serverToolUseIds.has(b.tool_use_id)) {
        out.push({
          path: [...at, 'tool_use_id'],
          anchor: 'value',
          severity: 'warning',
          code: 'orphan-server-tool-result',
          message: `tool_use_id "${b.tool_use_id}" matches no server_tool_use block earlier in the conversation.`,
        });
      }
      const beta = typeof b.type === 'string' ? BETA_BLOCK_TYPES[b.type] : undefined;
      if (beta) betaUsed(beta, [...at, 'type'], 'value', ctx, out);
      if (b.type === 'server_tool_use' && b.name === 'advisor')
        betaUsed(ADVISOR_CALL, [...at, 'name'], 'value', ctx, out);
      fileSources(b, at, ctx, out);
      nestedCacheControl(b, at, out);
      citationRules(b, at, out);
    });
  });
  if (info && !info.prefill) {
    const last: unknown = msgs[msgs.length - 1];
    if (isObj(last) && last.role === 'assistant') {
      out.push({
        path: ['messages', msgs.length - 1, 'role'],
        anchor: 'value',
        severity: 'error',
        code: 'prefill-unsupported',
        message:
          `${info.id} does not support prefilling assistant messages: ` +
          'the last message must not be an assistant turn.',
      });
    }
  }
}

/** Image and document blocks with a `file` source, here or inside a tool_result's content. */
function fileSources(block: Obj, at: Path, ctx: RuleContext, out: PathProblem[]): void {
  const check = (b: unknown, p: Path) => {
    if (isObj(b) && (b.type === 'image' || b.type === 'document') && isObj(b.source) && b.source.type === 'file') {
      betaUsed(FILE_SOURCE, [...p, 'source', 'type'], 'value', ctx, out);
    }
  };
  check(block, at);
  if (block.type === 'tool_result' && Array.isArray(block.content))
    block.content.forEach((c, k) => check(c, [...at, 'content', k]));
}

function orphanToolResult(id: string, known: string[], at: Path, out: PathProblem[]): void {
  const fixes: FixData[] = known
    .slice(-10)
    .reverse()
    .map(k => ({ kind: 'replace-value', title: `Use tool_use id "${k}"`, path: [...at, 'tool_use_id'], value: k }));
  const list = known
    .slice(-5)
    .map(x => `"${x}"`)
    .join(', ');
  const more = known.length > 5 ? ', …' : '';
  out.push({
    path: [...at, 'tool_use_id'],
    anchor: 'value',
    severity: 'error',
    code: 'orphan-tool-result',
    message:
      `tool_use_id "${id}" matches no tool_use block earlier in the conversation` +
      `${known.length ? ` (known: ${list}${more})` : ''}.`,
    ...(fixes.length ? { fixes } : {}),
  });
}

/** doc1 §2.3: nested cache_control only on the last block of tool_result.content or document.source.content. */
function nestedCacheControl(block: Obj, at: Path, out: PathProblem[]): void {
  const check = (arr: unknown, arrPath: Path, parentKind: string) => {
    if (!Array.isArray(arr)) return;
    arr.forEach((child, k) => {
      if (!isObj(child)) return;
      const parentTakesIt = BLOCK_ARRAYS_WITH_PARENT_CACHE.has(parentKind);
      if (given(child.cache_control) && !(parentTakesIt && k === arr.length - 1)) {
        out.push({
          path: [...arrPath, k, 'cache_control'],
          anchor: 'key',
          severity: 'error',
          code: 'nested-cache-control',
          message: parentTakesIt
            ? 'cache_control on a nested block is only allowed on the last block (it then applies to the parent). ' +
              'Move it to the parent block.'
            : 'cache_control is not allowed on this nested block; put it on the parent block.',
          fixes: [
            { kind: 'remove-property', title: 'Remove this cache_control', path: [...arrPath, k, 'cache_control'] },
          ],
        });
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

/** doc1 §2.5: a content_block_location's end_block_index is exclusive, always greater than its start. */
function citationRules(block: Obj, at: Path, out: PathProblem[]): void {
  if (block.type !== 'text' || !Array.isArray(block.citations)) return;
  block.citations.forEach((c, k) => {
    // the spec says "always greater than start_block_index" of content_block_location only
    if (!isObj(c) || c.type !== 'content_block_location') return;
    const { start_block_index: start, end_block_index: end } = c;
    if (typeof start === 'number' && typeof end === 'number' && end <= start) {
      out.push({
        path: [...at, 'citations', k, 'end_block_index'],
        anchor: 'value',
        severity: 'error',
        code: 'citation-block-range',
        message: `end_block_index (${end}) must be greater than start_block_index (${start}): the end is exclusive.`,
      });
    }
  });
}

/** doc1 §4.3 rules 1 and 4-8. */
function effortAndThinking(body: Obj, info: ModelInfo, out: PathProblem[]): void {
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

/** doc1 §2.2 rule 5, doc3 §9.5 (top_p with thinking), §2.1 (max_tokens 0). */
function samplingRules(body: Obj, info: ModelInfo | undefined, out: PathProblem[]): void {
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

/** doc1 §2.6. */
function toolRules(body: Obj, ctx: RuleContext, out: PathProblem[]): void {
  if (!Array.isArray(body.tools)) return;
  const seen = new Map<string, number>();
  body.tools.forEach((t, i) => {
    if (!isObj(t)) return;
    const at: Path = ['tools', i];
    if (typeof t.name === 'string') {
      const first = seen.get(t.name);
      if (first !== undefined) {
        out.push({
          path: [...at, 'name'],
          anchor: 'value',
          severity: 'error',
          code: 'duplicate-tool-name',
          message: `Tool name "${t.name}" is already used by tools[${first}]; tool names must be unique.`,
        });
      } else seen.set(t.name, i);
    }
    const type = typeof t.type === 'string' ? t.type : undefined;
    const beta = type ? BETA_TOOL_TYPES[type] : undefined;
    if (beta) betaUsed(beta, [...at, 'type'], 'value', ctx, out);
    if (given(t.allowed_domains) && given(t.blocked_domains)) {
      out.push({
        path: [...at, 'blocked_domains'],
        anchor: 'key',
        severity: 'error',
        code: 'exclusive-domains',
        message: 'allowed_domains and blocked_domains are mutually exclusive: give only one.',
        fixes: [
          { kind: 'remove-property', title: 'Remove blocked_domains', path: [...at, 'blocked_domains'] },
          { kind: 'remove-property', title: 'Remove allowed_domains', path: [...at, 'allowed_domains'] },
        ],
      });
    }
    if (isObj(t.user_location)) userLocationRules(t.user_location, [...at, 'user_location'], out);
  });
}

function userLocationRules(loc: Obj, at: Path, out: PathProblem[]): void {
  if (typeof loc.country === 'string' && !/^[A-Za-z]{2}$/.test(loc.country)) {
    out.push({
      path: [...at, 'country'],
      anchor: 'value',
      severity: 'error',
      code: 'country-code',
      message: `country must be a two-letter ISO country code such as "US" or "FR"; got "${loc.country}".`,
    });
  }
  if (typeof loc.timezone === 'string' && !isIanaZone(loc.timezone)) {
    out.push({
      path: [...at, 'timezone'],
      anchor: 'value',
      severity: 'warning',
      code: 'time-zone',
      message: `"${loc.timezone}" is not an IANA time zone this system knows (e.g. "Europe/Paris").`,
    });
  }
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

/** doc1 §2.1: user_id should be opaque (a uuid or a hash). */
function metadataRules(body: Obj, out: PathProblem[]): void {
  const md = body.metadata;
  if (isObj(md) && typeof md.user_id === 'string' && EMAIL.test(md.user_id.trim())) {
    out.push({
      path: ['metadata', 'user_id'],
      anchor: 'value',
      severity: 'warning',
      code: 'user-id-email',
      message: 'metadata.user_id looks like an e-mail address; it should be an opaque value such as a uuid or a hash.',
    });
  }
}

/** Warns once per use of a beta feature whose beta is not configured. */
function betaUsed(
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

/** doc1 §2.1 (speed, diagnostics), §8 (the retired 1M beta), doc3 §9.2 (betas), fields outside the spec. */
function betaRules(body: Obj, ctx: RuleContext, out: PathProblem[]): void {
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
