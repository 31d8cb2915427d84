// Prompt files of other tools that a request-file pattern catches: GitHub Models' `*.prompt.yml` (the same name as
// ours, with `testData`, `evaluators`, `modelParameters` and a `model` such as `openai/gpt-4o`) and Prompty's
// `.prompty` (YAML front matter between `---` lines, then a template). Neither is a body of POST /v1/messages:
// each gets one information problem that says what it is, and none of the request rules, so `check .` passes a
// repository that holds them and `run` and `count` leave them alone.
import { parseRequest } from './parse';
import type { Problem, RuleId } from './types';

export const OTHER_TOOL_FILE: RuleId = 'other-tool-file';

/** Keys only a GitHub Models prompt file has at its top. */
const GITHUB_MODELS_KEYS = ['testData', 'evaluators', 'modelParameters'];

/** A GitHub Models prompt file: one of its own keys, or a `publisher/model` id and no `max_tokens`. */
function isGitHubModels(v: Record<string, unknown>): boolean {
  if (GITHUB_MODELS_KEYS.some(k => k in v)) return true;
  return typeof v.model === 'string' && /^[\w.-]+\/[\w.:-]+$/.test(v.model) && !('max_tokens' in v);
}

/** Prompty's front matter: `---`, YAML whose `model` is an object (api, configuration, parameters), `---`. */
function isPrompty(text: string): boolean {
  const m = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!m) return false;
  const front = parseRequest(m[1]!, 'yaml').value;
  if (!front || typeof front !== 'object' || Array.isArray(front)) return false;
  const f = front as Record<string, unknown>;
  const model = f.model;
  const modelObject = !!model && typeof model === 'object' && !Array.isArray(model);
  return (modelObject || 'inputs' in f || 'sample' in f) && !('max_tokens' in f && 'messages' in f);
}

/**
 * The information problem of another tool's prompt file, or undefined for anything else. `value` is the file's
 * parsed value (when it parses); a Prompty file is found from its text alone, since it does not parse as one value.
 */
export function otherToolFile(text: string, value?: unknown): Problem | undefined {
  const end = Math.max(0, text.indexOf('\n') < 0 ? text.length : text.indexOf('\n'));
  const at = { start: 0, end, severity: 'info' as const, code: OTHER_TOOL_FILE, path: [] };
  const what = (tool: string) =>
    `A ${tool} file; not a request body: Promptwright does not check, count or send it. A request file for ` +
    'Promptwright is the body of POST /v1/messages ("model", "max_tokens", "messages").';
  if (/^\uFEFF?---/.test(text) && isPrompty(text)) return { ...at, message: what('Prompty') };
  const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
  if (isObject && isGitHubModels(value as Record<string, unknown>))
    return { ...at, message: what('GitHub Models prompt') };
  return undefined;
}
