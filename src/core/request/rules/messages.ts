// The conversation: the order of turns, tool results and their calls, the prefill, and one walk over the
// blocks of every message for the checks of other families (cache, citations, betas).
import { ADVISOR_CALL, BETA_BLOCK_TYPES, SYSTEM_ROLE } from '../betas';
import type { ModelInfo } from '../models';
import type { FixData, Path, PathProblem } from '../types';
import { betaUsed, fileSources } from './betas';
import { nestedCacheControl } from './cache';
import { isObj, type Obj, type RuleContext } from './common';

/** doc1 §2.2 rules 1 and 4, §2.3 (nested cache control), §2.4 (tool results), §2.5 (citations). */
export function messageRules(body: Obj, info: ModelInfo | undefined, ctx: RuleContext, out: PathProblem[]): void {
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
