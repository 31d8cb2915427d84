// Effort and extended thinking: per model (models.ts, or the service's model list merged over it), and with the
// rest of the request (tool_choice, context editing, the thinking blocks of assistant turns).
import { EFFORTS, effortModels, nearestEffort, type Effort, type ModelInfo } from '../../models/table';
import type { FixData, Path, PathProblem } from '../types';
import { given, isObj, type Obj, type Place } from './common';

/**
 * How the request thinks: manual (`enabled` with a budget), adaptive, or off. Absent thinking is off, except
 * on a model that thinks adaptively by default; for an unknown model it is not known (undefined), and the
 * rules that need thinking off do not fire.
 */
export function thinkingOf(body: Obj, info: ModelInfo | undefined): 'manual' | 'adaptive' | 'off' | undefined {
  const th = body.thinking;
  if (isObj(th)) return th.type === 'enabled' ? 'manual' : th.type === 'adaptive' ? 'adaptive' : 'off';
  if (given(th) || !info) return undefined;
  return info.thinking === 'adaptive-default-no-disable' || info.thinking === 'adaptive-default' ? 'adaptive' : 'off';
}

/** "a, b and c" */
const listed = (ids: readonly string[]) =>
  ids.length > 1 ? `${ids.slice(0, -1).join(', ')} and ${ids.at(-1)!}` : (ids[0] ?? 'no model');

/** The service's model list speaks to this capability of the model. */
const listSays = (info: ModelInfo, capability: 'effort' | 'thinking') =>
  !!info.service?.capabilities && info.service.capabilities[capability] !== undefined;
const BY_THE_LIST = "(the service's model list says so)";

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
  const types = info.thinkingTypes;
  if (th.type === 'enabled' && types && !types.enabled && !types.adaptive) {
    thinkingUnsupported(info, onType, out);
  } else if (
    th.type === 'enabled' &&
    (types ? !types.enabled : info.thinking === 'adaptive-only' || info.thinking === 'adaptive-default')
  ) {
    out.push({
      ...onType,
      severity: 'error',
      code: 'manual-thinking-unsupported',
      fixes: [toAdaptive],
      message:
        `${info.id} uses adaptive thinking; ` +
        `manual thinking {type: enabled, budget_tokens} is no longer supported${types ? ` ${BY_THE_LIST}` : ''}.`,
    });
  }
  if (info.thinking === 'adaptive-preferred' && th.type === 'enabled' && (!types || types.enabled)) {
    out.push({
      path: ['thinking', 'budget_tokens'],
      anchor: 'key',
      severity: 'warning',
      code: 'budget-tokens-deprecated',
      message: `On ${info.id} budget_tokens is accepted but deprecated; adaptive thinking is recommended.`,
      fixes: [toAdaptive],
    });
  }
  if (th.type === 'adaptive' && types && !types.adaptive && !types.enabled) {
    thinkingUnsupported(info, onType, out);
  } else if (th.type === 'adaptive' && (types ? !types.adaptive : info.thinking === 'manual')) {
    // a budget below max_tokens, so the fix does not trade one error for another
    const max = typeof body.max_tokens === 'number' ? body.max_tokens : 8192;
    const value = { type: 'enabled', budget_tokens: Math.max(1024, Math.min(4096, Math.floor(max / 2))) };
    out.push({
      ...onType,
      severity: 'error',
      code: 'manual-thinking-expected',
      message:
        `${info.id} does not support adaptive thinking; it uses manual thinking: ` +
        `{type: enabled, budget_tokens: N}${types ? ` ${BY_THE_LIST}` : ''}.`,
      fixes: [{ kind: 'replace-value', title: 'Use manual thinking with a budget', path: ['thinking'], value }],
    });
  }
}

/** The service's model list says the model does not think at all. */
function thinkingUnsupported(info: ModelInfo, at: Place, out: PathProblem[]): void {
  out.push({
    ...at,
    severity: 'error',
    code: 'thinking-unsupported',
    message:
      `${info.id} does not support extended thinking ${BY_THE_LIST}: remove thinking, or use a model that ` + 'thinks.',
    fixes: [{ kind: 'remove-property', title: 'Remove thinking', path: ['thinking'] }],
  });
}

function effortRules(body: Obj, info: ModelInfo, effort: Effort, out: PathProblem[]): void {
  const at: Place = { path: ['output_config', 'effort'], anchor: 'value' };
  const byList = listSays(info, 'effort');
  if (!info.effort) {
    out.push({
      ...at,
      severity: 'error',
      code: 'effort-unsupported',
      message: byList
        ? `${info.id} does not support effort ${BY_THE_LIST}.`
        : `${info.id} does not support effort. Effort is supported by ${listed(effortModels())}.`,
      fixes: [{ kind: 'remove-property', title: 'Remove effort', path: ['output_config', 'effort'] }],
    });
  } else if (!info.effort.includes(effort)) {
    const near = nearestEffort(effort, info.effort);
    const who = byList ? BY_THE_LIST : `(it is available on ${listed(effortModels(effort))})`;
    out.push({
      ...at,
      severity: 'error',
      code: 'effort-unavailable',
      message:
        `Effort "${effort}" is not available on ${info.id} ${who}. ` +
        `Supported here: ${info.effort.join(', ') || 'no level'}.`,
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

/**
 * Thinking with the rest of the request, from reports of the service's messages. Manual thinking only where
 * the reports are about it: an accepted request sends adaptive thinking with a forced tool_choice.
 */
export function thinkingRules(body: Obj, info: ModelInfo | undefined, out: PathProblem[]): void {
  const mode = thinkingOf(body, info);
  const tc = body.tool_choice;
  if (mode === 'manual' && isObj(tc) && (tc.type === 'any' || tc.type === 'tool')) {
    const value = {
      type: 'auto',
      ...(given(tc.disable_parallel_tool_use) ? { disable_parallel_tool_use: tc.disable_parallel_tool_use } : {}),
    };
    out.push({
      path: ['tool_choice'],
      anchor: 'value',
      severity: 'error',
      code: 'thinking-with-forced-tool-choice',
      message:
        `Thinking may not be enabled when tool_choice forces tool use ("${tc.type}"): use tool_choice "auto", ` +
        'or turn thinking off.',
      fixes: [{ kind: 'replace-value', title: 'Use tool_choice "auto"', path: ['tool_choice'], value }],
    });
  }
  const cm = body.context_management;
  if (mode === 'off' && isObj(cm) && Array.isArray(cm.edits)) {
    cm.edits.forEach((e, k) => {
      if (!isObj(e) || e.type !== 'clear_thinking_20251015') return;
      out.push({
        path: ['context_management', 'edits', k, 'type'],
        anchor: 'value',
        severity: 'error',
        code: 'clear-thinking-without-thinking',
        message:
          'The clear_thinking_20251015 edit clears thinking blocks, and needs thinking enabled: enable thinking, ' +
          'or remove this edit.',
        fixes: [{ kind: 'remove-property', title: 'Remove this edit', path: ['context_management', 'edits', k] }],
      });
    });
  }
  if (Array.isArray(body.messages)) thinkingBlocks(body.messages, mode, out);
}

const isThinking = (b: unknown) => isObj(b) && (b.type === 'thinking' || b.type === 'redacted_thinking');

/** The thinking blocks of assistant turns: first in their message, never last in the final one. */
function thinkingBlocks(msgs: unknown[], mode: ReturnType<typeof thinkingOf>, out: PathProblem[]): void {
  const last = msgs.length - 1;
  for (let i = 0; i <= last; i++) {
    const m: unknown = msgs[i];
    if (!isObj(m) || m.role !== 'assistant' || !Array.isArray(m.content) || !m.content.length) continue;
    const blocks = m.content;
    const first: unknown = blocks[0];
    if (!isThinking(first) && blocks.some(isThinking)) {
      const found = isObj(first) && typeof first.type === 'string' ? first.type : 'another block';
      out.push({
        path: ['messages', i, 'content', 0],
        anchor: 'value',
        severity: 'error',
        code: 'thinking-not-first-block',
        message:
          'An assistant message that holds thinking blocks must start with one (thinking or redacted_thinking); ' +
          `this one starts with ${found}. Keep the blocks in the order the response gave them.`,
      });
    }
    if (i !== last) continue;
    const final: unknown = blocks[blocks.length - 1];
    if (isObj(final) && final.type === 'thinking') {
      out.push({
        path: ['messages', i, 'content', blocks.length - 1],
        anchor: 'value',
        severity: 'error',
        code: 'thinking-as-final-block',
        message: 'The final block of an assistant message cannot be a thinking block: end the prefill with text.',
      });
    }
    const k = blocks.findIndex(isThinking);
    if (mode === 'off' && k >= 0) {
      const at: Path = ['messages', i, 'content', k];
      out.push({
        path: at,
        anchor: 'value',
        severity: 'error',
        code: 'thinking-blocks-without-thinking',
        message:
          'With thinking off, the final assistant message cannot hold thinking blocks: enable thinking, or ' +
          'remove the block.',
        fixes: [{ kind: 'remove-property', title: 'Remove this thinking block', path: at }],
      });
    }
  }
  if (mode === 'manual') toolTurnThinking(msgs, out);
}

/**
 * With manual thinking, when the conversation ends with tool results, the assistant turn that made the calls
 * must start with its thinking block (the service checks the last set of tool_use and tool_result blocks).
 */
function toolTurnThinking(msgs: unknown[], out: PathProblem[]): void {
  const n = msgs.length;
  const answer: unknown = msgs[n - 1];
  const call: unknown = msgs[n - 2];
  if (!isObj(answer) || answer.role !== 'user' || !Array.isArray(answer.content)) return;
  if (!answer.content.some(b => isObj(b) && b.type === 'tool_result')) return;
  if (!isObj(call) || call.role !== 'assistant' || !Array.isArray(call.content)) return;
  const first: unknown = call.content[0];
  if (!isObj(first) || isThinking(first)) return;
  out.push({
    path: ['messages', n - 2, 'content', 0, 'type'],
    anchor: 'value',
    severity: 'error',
    code: 'tool-turn-without-thinking',
    message:
      `With thinking enabled, the assistant turn whose tool calls the last message answers must start with its ` +
      `thinking block; it starts with ${typeof first.type === 'string' ? first.type : 'another block'}. Send ` +
      'the thinking blocks back as the response gave them, or turn thinking off.',
  });
}
