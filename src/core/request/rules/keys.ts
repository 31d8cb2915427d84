// Unknown keys the service is known to refuse. The schema (issues.ts) reports an unknown key as a warning,
// since the spec is not the whole API; for these keys it asks `refusedKey` and reports an error instead.
import type { FixData, Path, PathProblem } from '../types';
import { isObj, type Obj } from './common';

/**
 * Fields of other APIs (OpenAI's chat completions, SDK request options) that the service refuses like any key
 * it does not know ("response_format: Extra inputs are not permitted"). Unlike other unknown keys, they are
 * not a newer or beta field of this API that Promptwright has not heard of. The hint says what to use here.
 */
const FOREIGN_FIELDS: Readonly<Record<string, string>> = {
  response_format: 'structured outputs take output_config.format',
  extra_body: 'an SDK option: its fields go into the body itself',
  extra_headers: 'an SDK option: headers are not part of the body',
  extra_query: 'an SDK option: query parameters are not part of the body',
  max_completion_tokens: 'this API takes max_tokens',
  stop: 'this API takes stop_sequences (a list)',
  frequency_penalty: 'this API has no penalties',
  presence_penalty: 'this API has no penalties',
  logit_bias: 'this API has no logit bias',
  logprobs: 'this API returns no log probabilities',
  top_logprobs: 'this API returns no log probabilities',
  n: 'this API returns one response per request',
  seed: 'this API takes no seed',
  functions: 'this API takes tools',
  function_call: 'this API takes tool_choice',
  parallel_tool_calls: 'tool_choice has disable_parallel_tool_use',
  stream_options: 'this API has no stream options',
  reasoning_effort: 'this API takes output_config.effort and thinking',
};
/** A foreign field with a direct counterpart here, renamed by a quick fix when the counterpart is absent. */
const RENAMES: Readonly<Record<string, string>> = { max_completion_tokens: 'max_tokens', stop: 'stop_sequences' };

export type KeyVerdict = Pick<PathProblem, 'severity' | 'code' | 'message'> & { fixes?: FixData[] };

/**
 * An unknown key (`key` in the object at `path` of `root`) that the service is known to refuse: a foreign
 * field at the top level, cache_control on a thinking block, any other unknown key of a content block. A
 * content block's fields are those of the spec (beta blocks are not checked for keys), and reports show the
 * service refusing an extra one ("messages.65.content.1.tool_use.text: Extra inputs are not permitted").
 * Undefined for the other unknown keys, which stay warnings.
 */
export function refusedKey(root: unknown, container: unknown, path: Path, key: string): KeyVerdict | undefined {
  if (path.length === 0 && Object.hasOwn(FOREIGN_FIELDS, key)) {
    const target = Object.hasOwn(RENAMES, key) ? RENAMES[key] : undefined;
    const rename =
      target && isObj(root) && !(target in root) && (key !== 'stop' || Array.isArray(root.stop))
        ? [{ kind: 'rename-property' as const, title: `Rename to "${target}"`, path: [key], key: target }]
        : [];
    return {
      severity: 'error',
      code: 'foreign-field',
      message: `"${key}" is a field of another API, which the service refuses: ${FOREIGN_FIELDS[key]}.`,
      fixes: [...rename, { kind: 'remove-property', title: `Remove "${key}"`, path: [key] }],
    };
  }
  if (!isBlock(container, path)) return undefined;
  const type = (container as Obj).type as string;
  if ((type === 'thinking' || type === 'redacted_thinking') && key === 'cache_control') {
    return {
      severity: 'error',
      code: 'thinking-cache-control',
      message:
        `A ${type} block cannot carry cache_control: put the breakpoint on another block of the message, or ` +
        'remove it.',
    };
  }
  return {
    severity: 'error',
    code: 'extra-field-in-block',
    message: `A ${type} block has no field "${key}"; the service refuses fields a block does not have.`,
  };
}

/** A content block: an object with a string `type` in a `content` list (of a message or a block) or in system. */
function isBlock(container: unknown, path: Path): boolean {
  const n = path.length;
  if (!isObj(container) || typeof container.type !== 'string' || typeof path[n - 1] !== 'number') return false;
  return (path[0] === 'messages' && path[n - 2] === 'content') || (n === 2 && path[0] === 'system');
}
