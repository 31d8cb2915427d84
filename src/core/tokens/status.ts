// What the status bar item shows for a count state: text, a Markdown tooltip with command links, and a
// tone (normal / warning / error). Pure, so the wording is unit-tested. The tooltip is trusted with those
// commands, so what comes from the file, the settings or the service (the model, a revision, an error's type,
// message and request-id) is set in as text or code, never as Markdown of its own.
import { changeWords, deltaOf, signedTokens } from './deltas';
import type { CountState } from './scheduler';
import { addressShown, count, markdownCode, markdownText, thousands, tokensShort } from '../text';

export interface StatusView {
  text: string;
  tooltip: string;
  tone: 'normal' | 'warning' | 'error';
}

export interface StatusMeta {
  model?: string;
  maxTokens?: number;
  /**
   * The model's context window: from the service's model list (`max_input_tokens`) when it is loaded, else
   * from the built-in table (doc1 §8: 1M for the models that have it); 200k when the model is not known.
   */
  contextWindow?: number;
  /** the same file at the base revision (promptwright.compare.base), for the change beside the count */
  base?: BaseCount;
  /** where counts are sent (promptwright.baseUrl, or the offline demo's), said where a count is shown */
  service?: string;
}

/** The count of a file's version at a git revision; `new` when the file is not there. */
export type BaseCount =
  | { ref: string; kind: 'count'; tokens: number }
  | { ref: string; kind: 'new' }
  | { ref: string; kind: 'counting' }
  | { ref: string; kind: 'error'; message: string };

/** " · +56 vs HEAD", " · new file", or nothing: what the status bar adds to a count. */
function baseSuffix(base: BaseCount | undefined, tokens: number): string {
  if (base?.kind === 'count') return ` · ${signedTokens(tokens - base.tokens)} vs ${base.ref}`;
  return base?.kind === 'new' ? ' · new file' : '';
}

/** The tooltip's line about the base: both counts and the change. */
function baseLine(base: BaseCount | undefined, tokens: number): string[] {
  if (!base) return [];
  const ref = markdownCode(base.ref);
  switch (base.kind) {
    case 'count':
      return [
        `${ref}: **${thousands(base.tokens)}** input tokens · now **${thousands(tokens)}** ` +
          `(${changeWords(deltaOf(base.tokens, tokens))})`,
      ];
    case 'new':
      return [`Not in ${ref}: a new file.`];
    case 'counting':
      return [`Counting the version in ${ref}…`];
    case 'error':
      return [`The version in ${ref} was not counted: ${markdownText(base.message)}`];
  }
}

/** The standard context window (doc1 §8), for a model whose window is not known. */
const STANDARD_WINDOW = 200_000;

const COUNT_NOW = '[Count now](command:promptwright.countTokens)';
const LINKS = [
  COUNT_NOW,
  '[Token breakdown](command:promptwright.tokenBreakdown)',
  '[Show log](command:promptwright.showLog)',
].join(' · ');

export function renderStatus(s: CountState, meta: StatusMeta): StatusView {
  const window = meta.contextWindow ?? STANDARD_WINDOW;
  const lines = (tokens?: number): string[] => {
    const out: string[] = [];
    if (meta.model) out.push(`Model: ${markdownCode(meta.model)}`);
    if (tokens !== undefined) {
      const share = ((100 * tokens) / window).toFixed(tokens / window < 0.01 ? 2 : 1);
      out.push(`Input tokens: **${thousands(tokens)}** — ${share}% of the ${tokensShort(window)} context window`);
    }
    if (meta.maxTokens !== undefined) out.push(`max_tokens: ${thousands(meta.maxTokens)}`);
    return out;
  };
  const tip = (...parts: string[]) => [...parts, LINKS].join('\n\n');
  const sentTo = meta.service ? ` ${markdownCode(addressShown(meta.service))}` : '';
  switch (s.kind) {
    case 'idle':
      return {
        text: '$(symbol-number) tokens',
        tooltip: tip('Promptwright token count: waiting for a valid request.'),
        tone: 'normal',
      };
    case 'counting':
      return {
        text: `$(loading~spin) ${s.previous !== undefined ? count(s.previous, 'token') : 'counting…'}`,
        tooltip: tip(`Counting tokens${sentTo ? ` at${sentTo}` : ''}…`, ...lines(s.previous)),
        tone: 'normal',
      };
    case 'count': {
      const over = s.tokens > window;
      const time = new Date(s.at).toLocaleTimeString('en-US', { hour12: false });
      return {
        text: `$(symbol-number) ${count(s.tokens, 'token')}${s.stale ? ' (stale)' : baseSuffix(meta.base, s.tokens)}`,
        tooltip: tip(
          ...lines(s.tokens),
          ...(s.stale ? [] : baseLine(meta.base, s.tokens)),
          `Counted by${sentTo || ' the service'} at ${time}` +
            (s.cached ? ' (cached: the same body was counted before)' : '') +
            (s.requestId ? ` · request-id ${markdownCode(s.requestId)}` : ''),
          ...(s.stale ? ['$(warning) The file has syntax errors: this is the last count, not the current text.'] : []),
          ...(over ? [`$(error) Over the model's context window.`] : []),
        ),
        tone: over ? 'error' : s.stale ? 'warning' : 'normal',
      };
    }
    case 'estimate': {
      const why = {
        'no-key': "No API key: [Set API Key](command:promptwright.setApiKey) to get the service's count.",
        'no-base-url':
          'No service address: ' +
          '[set promptwright.baseUrl](command:workbench.action.openSettings?%22promptwright.baseUrl%22) ' +
          "to get the service's count.",
        offline: 'The service cannot be reached.',
        'live-off': `Live counting is off (\`promptwright.tokenCount.live\`); ${COUNT_NOW} sends the file once.`,
        untrusted: `This workspace is not trusted: nothing is sent automatically. ${COUNT_NOW} sends the file once.`,
      }[s.reason];
      return {
        text: `$(symbol-number) ≈ ${count(s.tokens, 'token')}`,
        tooltip: tip(`**Estimate** (about four characters a token), not the service's count.`, ...lines(s.tokens), why),
        tone: 'normal',
      };
    }
    case 'retrying':
      return {
        text: `$(watch) retrying in ${Math.ceil(s.inMs / 1000)} s`,
        tooltip: tip(
          `Token count: ${markdownText(s.why)}. Retrying in ${Math.ceil(s.inMs / 1000)} s.`,
          ...lines(s.previous),
        ),
        tone: 'warning',
      };
    case 'error':
      return {
        text: `$(warning) ${s.previous !== undefined ? count(s.previous, 'token') : 'tokens'}`,
        tooltip: tip(
          `**Token count failed**${s.type ? `: ${markdownCode(s.type)}` : ''}${sentTo ? ` (sent to${sentTo})` : ''}`,
          markdownText(s.message),
          ...(s.requestId ? [`request-id ${markdownCode(s.requestId)}`] : []),
          ...lines(s.previous),
        ),
        tone: 'warning',
      };
  }
}
