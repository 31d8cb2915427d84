// The conversation: the order of turns, tool results and their calls, the prefill, and one walk over the
// blocks of every message for the checks of other families (cache, citations, betas).
import { ADVISOR_CALL, BETA_BLOCK_TYPES, SYSTEM_ROLE } from '../betas';
import type { ModelInfo } from '../../models/table';
import type { FixData, Path, PathProblem } from '../types';
import { betaUsed, fileSources } from './betas';
import { isObj, type Obj, type RuleContext } from './common';

/** A tool_use block (its id) or a tool_result block (its tool_use_id), and where it is. */
interface Use {
  id: string;
  i: number;
  j: number;
}

const NONE: readonly Use[] = [];

/** The roles a message may have; the first message has no turn before it (undefined). */
const KNOWN_ROLES = new Set<unknown>(['user', 'assistant', 'system', undefined]);

/** The ids the service takes: letters, digits, `_` and `-` (its message quotes the pattern). */
const TOOL_USE_ID = /^[a-zA-Z0-9_-]+$/;
/** "messages.N.content.M.tool_use.name: String should have at most 200 characters" */
const MAX_TOOL_USE_NAME = 200;

/**
 * doc1 §2.2 rules 1, 2 and 4, §2.4 (tool results), §2.5 (citations); empty and whitespace text, the prefill's
 * trailing whitespace and the pairing of tool calls and results come from reports of the service's messages.
 */
export function messageRules(body: Obj, info: ModelInfo | undefined, ctx: RuleContext, out: PathProblem[]): void {
  const msgs = body.messages;
  if (!Array.isArray(msgs)) return;
  const serverToolUseIds = new Set<string>();
  const pairing = new ToolPairing(out);
  const last = msgs.length - 1;
  // plain loops and paths built only for a problem: this walk runs on every keystroke, over every block
  for (let i = 0; i <= last; i++) {
    const m: unknown = msgs[i];
    if (!isObj(m)) continue;
    const role = m.role;
    if (i > 0 && role === pairing.role && (role === 'user' || role === 'assistant')) {
      out.push({
        path: ['messages', i, 'role'],
        anchor: 'value',
        severity: 'warning',
        code: 'consecutive-roles',
        message:
          `Two ${String(role)} turns in a row: the service combines consecutive turns of the same role into ` +
          'one. Alternate user and assistant turns.',
      });
    } else pairing.turn(role);
    if (role === 'system') betaUsed(SYSTEM_ROLE, ['messages', i, 'role'], 'value', ctx, out);
    const content = m.content;
    const prefill = i === last && role === 'assistant';
    if (prefill) prefillRules(content, i, info, out);
    else if (role === 'user' || role === 'assistant') emptyContent(content, i, out);
    if (!Array.isArray(content)) continue;
    // in a user message, the first block that is not a tool_result (tool results must come before it)
    let other = -1;
    let misplaced = false;
    for (let j = 0; j < content.length; j++) {
      const b: unknown = content[j];
      if (!isObj(b)) continue;
      const type = b.type;
      if (type !== 'tool_result' && other < 0) other = j;
      if (type === 'text') {
        if (!prefill && typeof b.text === 'string' && isBlank(b.text))
          (role === 'assistant' && b.text !== '' ? assistantWhitespace : emptyText)(
            b.text,
            ['messages', i, 'content', j],
            out,
          );
        if (Array.isArray(b.citations)) citationRules(b, ['messages', i, 'content', j], out);
      } else if (type === 'tool_use') {
        if (typeof b.id === 'string') pairing.use({ id: b.id, i, j });
        if (typeof b.name === 'string' && b.name.length > MAX_TOOL_USE_NAME) toolUseName(b.name, i, j, out);
      } else if (type === 'tool_result') {
        if (role === 'user' && other >= 0 && !misplaced) {
          misplaced = true;
          toolResultNotFirst(content, i, other, out);
        }
        if (typeof b.tool_use_id === 'string') pairing.result({ id: b.tool_use_id, i, j });
        fileSources(b, i, j, ctx, out);
      } else if (type === 'image' || type === 'document') {
        fileSources(b, i, j, ctx, out);
      } else if (typeof type === 'string') {
        otherBlock(b, type, i, j, serverToolUseIds, ctx, out);
      }
    }
  }
  pairing.end();
  if (info && !info.prefill) {
    const lastMessage: unknown = msgs[last];
    if (isObj(lastMessage) && lastMessage.role === 'assistant') {
      out.push({
        path: ['messages', last],
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

/** Server tool calls and their results, and beta blocks. */
function otherBlock(
  b: Obj,
  type: string,
  i: number,
  j: number,
  serverToolUseIds: Set<string>,
  ctx: RuleContext,
  out: PathProblem[],
): void {
  if ((type === 'server_tool_use' || type === 'mcp_tool_use') && typeof b.id === 'string') serverToolUseIds.add(b.id);
  const serverResult = type.endsWith('_tool_result');
  if (serverResult && typeof b.tool_use_id === 'string' && !serverToolUseIds.has(b.tool_use_id)) {
    out.push({
      path: ['messages', i, 'content', j, 'tool_use_id'],
      anchor: 'value',
      severity: 'warning',
      code: 'orphan-server-tool-result',
      message: `tool_use_id "${b.tool_use_id}" matches no server_tool_use block earlier in the conversation.`,
    });
  }
  // own keys only: a block typed "constructor" is not a beta feature
  const beta = Object.hasOwn(BETA_BLOCK_TYPES, type) ? BETA_BLOCK_TYPES[type] : undefined;
  if (beta) betaUsed(beta, ['messages', i, 'content', j, 'type'], 'value', ctx, out);
  if (type === 'server_tool_use' && b.name === 'advisor')
    betaUsed(ADVISOR_CALL, ['messages', i, 'content', j, 'name'], 'value', ctx, out);
}

/**
 * Each tool_use of an assistant turn is answered by a tool_result in the user turn right after it, and each
 * tool_result answers a tool_use of the assistant turn right before it; tool_use ids are unique in the request
 * and made of letters, digits, `_` and `-`. A turn is a run of consecutive messages of one role, which the
 * service combines into one. An assistant turn that ends the conversation is a prefill: its calls have no turn
 * after them yet, and are not checked. Turns are settled as the walk leaves them, two at a time, so a long
 * conversation costs no table of its turns.
 */
class ToolPairing {
  /** the role of the current turn */
  role: unknown;
  private n = -1;
  private uses: Use[] | undefined;
  private results: Use[] | undefined;
  private prevRole: unknown;
  private prevUses: Use[] | undefined;
  /** the first tool_use of each id, and the turn it is in */
  private readonly first = new Map<string, { i: number; turn: number }>();

  constructor(private readonly out: PathProblem[]) {}

  turn(role: unknown): void {
    if (this.n >= 0) this.settle();
    this.prevRole = this.role;
    this.prevUses = this.uses;
    this.role = role;
    this.uses = undefined;
    this.results = undefined;
    this.n++;
  }

  use(u: Use): void {
    const earlier = this.first.get(u.id);
    if (!earlier) this.first.set(u.id, { i: u.i, turn: this.n });
    else {
      this.out.push({
        path: ['messages', u.i, 'content', u.j, 'id'],
        anchor: 'value',
        severity: 'error',
        code: 'duplicate-tool-use-id',
        message: `The tool_use id "${u.id}" is already used in messages[${earlier.i}]; tool_use ids must be unique.`,
      });
    }
    if (!TOOL_USE_ID.test(u.id)) {
      this.out.push({
        path: ['messages', u.i, 'content', u.j, 'id'],
        anchor: 'value',
        severity: 'error',
        code: 'tool-use-id-pattern',
        message:
          `The tool_use id ${JSON.stringify(u.id)} has characters the service refuses: an id is made of ` +
          'letters, digits, "_" and "-" (at least one).',
      });
    }
    (this.uses ??= []).push(u);
  }

  result(r: Use): void {
    (this.results ??= []).push(r);
  }

  end(): void {
    if (this.n >= 0) this.settle();
  }

  /** The current turn against the one before it. */
  private settle(): void {
    if (this.role !== 'user') return;
    const calls = (this.prevRole === 'assistant' && this.prevUses) || NONE;
    const results = this.results ?? NONE;
    for (const u of calls) {
      if (hasId(results, u.id)) continue;
      this.out.push({
        path: ['messages', u.i, 'content', u.j, 'id'],
        anchor: 'value',
        severity: 'error',
        code: 'tool-use-without-result',
        message:
          `The tool_use "${u.id}" has no tool_result in the user turn after it: each tool_use must be answered ` +
          'by a tool_result (with its id as tool_use_id) in the next message.',
      });
    }
    // after a message whose role is invalid (reported as such), which calls a result answers is not known
    if (!this.results || !KNOWN_ROLES.has(this.prevRole)) return;
    for (const r of this.results) {
      if (hasId(calls, r.id)) continue;
      const earlier = this.first.get(r.id);
      orphanToolResult(r, calls, earlier && earlier.turn < this.n ? earlier.i : undefined, this.out);
    }
  }
}

/** Whether one of `uses` has the id (a loop: this runs for every call and result of a conversation). */
function hasId(uses: readonly Use[], id: string): boolean {
  for (let k = 0; k < uses.length; k++) if (uses[k]!.id === id) return true;
  return false;
}

function orphanToolResult(r: Use, previous: readonly Use[], earlier: number | undefined, out: PathProblem[]): void {
  const at: Path = ['messages', r.i, 'content', r.j, 'tool_use_id'];
  const known = previous.map(u => u.id);
  const fixes: FixData[] = known
    .slice(-10)
    .reverse()
    .map(k => ({ kind: 'replace-value', title: `Use tool_use id "${k}"`, path: at, value: k }));
  const list = known
    .slice(-5)
    .map(x => `"${x}"`)
    .join(', ');
  const more = known.length > 5 ? ', …' : '';
  const where =
    earlier !== undefined
      ? `answers a tool_use of messages[${earlier}], not of the assistant turn just before it: a tool_result ` +
        'answers a tool_use of the previous message'
      : 'matches no tool_use block of the assistant turn before it';
  out.push({
    path: at,
    anchor: 'value',
    severity: 'error',
    code: 'orphan-tool-result',
    message: `tool_use_id "${r.id}" ${where}${known.length ? ` (its ids: ${list}${more})` : ''}.`,
    ...(fixes.length ? { fixes } : {}),
  });
}

/**
 * A user message that answers tool calls starts with its tool_result blocks: other content before one of them
 * (text, an image) is refused as if the calls had no result. Marked on the first block out of place; the fix
 * moves the tool_result blocks to the front, keeping the order of the rest.
 */
function toolResultNotFirst(content: unknown[], i: number, other: number, out: PathProblem[]): void {
  const isResult = (b: unknown) => isObj(b) && b.type === 'tool_result';
  const value = [...content.filter(isResult), ...content.filter(b => !isResult(b))];
  out.push({
    path: ['messages', i, 'content', other],
    anchor: 'value',
    severity: 'error',
    code: 'tool-result-not-first',
    message:
      'The tool_result blocks of a message that answers tool calls must come first: this block comes before one, ' +
      'and the service refuses the request as if the calls had no result. Put the tool_result blocks at the start ' +
      'of the content, and the rest after them.',
    fixes: [
      { kind: 'replace-value', title: 'Put the tool_result blocks first', path: ['messages', i, 'content'], value },
    ],
  });
}

/** A tool_use in the history whose name is longer than the service takes there. */
function toolUseName(name: string, i: number, j: number, out: PathProblem[]): void {
  out.push({
    path: ['messages', i, 'content', j, 'name'],
    anchor: 'value',
    severity: 'error',
    code: 'tool-use-name-too-long',
    message:
      `This tool_use name is ${name.length} characters long; the service takes at most ${MAX_TOOL_USE_NAME} in a ` +
      'tool_use block of the conversation. Shorten the tool name (here and in its tool definition).',
  });
}

/**
 * A whitespace-only text block in an assistant turn before the last: a 2026 recording shows the service taking one
 * (" " between cited text blocks of a web search answer sent back), where reports show it refusing one in a user
 * turn. A warning, with the fix of removing it.
 */
function assistantWhitespace(text: string, at: Path, out: PathProblem[]): void {
  out.push({
    path: [...at, 'text'],
    anchor: 'value',
    severity: 'warning',
    code: 'assistant-whitespace-text',
    message:
      'This text block of an assistant turn holds only whitespace. The service takes one in a reply sent back as it ' +
      'came (between cited text blocks), but refuses whitespace-only text in user turns; remove it if you wrote it.',
    fixes: [{ kind: 'remove-property', title: 'Remove this text block', path: at }],
  });
}

/** A turn other than the final assistant one: its content, a string or blocks, must hold text. */
function emptyContent(content: unknown, i: number, out: PathProblem[]): void {
  if (typeof content === 'string') {
    if (isBlank(content)) emptyText(content, ['messages', i, 'content'], out);
  } else if (Array.isArray(content) && content.length === 0) {
    out.push({
      path: ['messages', i, 'content'],
      anchor: 'value',
      severity: 'error',
      code: 'empty-message-content',
      message:
        'This message has no content: every message must have some, except an empty final assistant message. ' +
        'Add a block, or remove the message.',
    });
  }
}

/** A text block (or string content) that is empty, or only whitespace; `at` is the string. */
function emptyText(text: string, at: Path, out: PathProblem[]): void {
  if (!isBlank(text)) return;
  const block = typeof at[at.length - 1] === 'number';
  const fixes: FixData[] = block ? [{ kind: 'remove-property', title: 'Remove this text block', path: at }] : [];
  const [code, what] =
    text === ''
      ? (['empty-text-block', 'is empty'] as const)
      : (['whitespace-text-block', 'holds only whitespace'] as const);
  out.push({
    path: block ? [...at, 'text'] : at,
    anchor: 'value',
    severity: 'error',
    code,
    message: `This text ${what}: the service refuses text blocks without visible text. Write the text, or remove it.`,
    ...(fixes.length ? { fixes } : {}),
  });
}

/** Empty, or whitespace only (as trim() reads it); the first character settles most texts. */
function isBlank(s: string): boolean {
  if (s === '') return true;
  const c = s.charCodeAt(0);
  return !(c > 32 && c < 127) && s.trim() === '';
}

/**
 * The final assistant turn (a prefill) may be empty, but may not end with whitespace; a model without prefill
 * gets prefill-unsupported instead.
 */
function prefillRules(content: unknown, i: number, info: ModelInfo | undefined, out: PathProblem[]): void {
  if (info && !info.prefill) return;
  let at: Path = ['messages', i, 'content'];
  let text = content;
  if (Array.isArray(content)) {
    const lastBlock: unknown = content[content.length - 1];
    if (!isObj(lastBlock) || lastBlock.type !== 'text') return;
    at = [...at, content.length - 1, 'text'];
    text = lastBlock.text;
  }
  if (typeof text !== 'string' || !/\s$/.test(text)) return;
  out.push({
    path: at,
    anchor: 'value',
    severity: 'error',
    code: 'prefill-trailing-whitespace',
    message:
      'The final assistant message (the prefill) ends with whitespace, which the service refuses. The model ' +
      'continues the text as it is: end it without the space or line break.',
    fixes: [{ kind: 'replace-value', title: 'Remove the trailing whitespace', path: at, value: text.trimEnd() }],
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
