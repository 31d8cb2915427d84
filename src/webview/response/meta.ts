// The run at a glance: one status strip above the reply (status · model · stop reason · tokens in and out ·
// cache · time · cost · request-id), and below it the usage in words with the rest of the facts.
import type { Message, RunView } from '../../protocol/response';
import { cacheShort, tokensInOut, usageWords } from '../../core/api/usage';
import { formatUsd } from '../../core/cost/format';
import { count } from '../../core/text';
import { $, el } from '../common/dom';

const STATUS: Record<RunView['outcome'], string> = {
  running: 'streaming…',
  done: 'done',
  cancelled: 'cancelled',
  error: 'failed',
};

export function renderMeta(view: RunView | undefined, m: Message | undefined): void {
  const meta = $('meta');
  meta.replaceChildren();
  const details = $('usage');
  details.replaceChildren();
  if (!view) return;
  meta.dataset.file = view.file;
  const item = (text: string | undefined, className: string, title: string, id?: string) => {
    if (!text) return;
    const span = el('span', `strip-item ${className}`, text);
    span.title = title;
    if (id) span.id = id;
    meta.appendChild(span);
  };
  item(STATUS[view.outcome], `status status-${view.outcome}`, 'How the run went', 'meta-status');
  item(m?.model ?? view.model, 'model', 'The model that answered');
  item(m?.stop_reason ?? undefined, 'stop', 'stop_reason', 'meta-stop');
  item(tokensInOut(m?.usage), 'tokens', 'Input tokens (cached ones included) and output tokens');
  item(cacheShort(m?.usage), 'cache', 'What the prompt cache did');
  item(seconds(view.timings.totalMs), 'time', `Total time; first token after ${ms(view.timings.firstTokenMs)}`);
  const cost = view.cost;
  if (cost)
    item(
      cost.usd === null ? 'cost unknown' : formatUsd(cost.usd),
      'cost',
      cost.usd === null ? (cost.why ?? 'No price for this model') : 'What this reply cost (promptwright.prices)',
      'meta-cost',
    );
  item(view.requestId, 'request-id', 'request-id: quote it when asking the service about this request');
  item(view.service, 'service', 'Where the request was sent (promptwright.baseUrl)', 'meta-service');

  const u = m?.usage;
  const line = (label: string, value: string | undefined) => {
    if (!value) return;
    const p = el('p', 'fact');
    p.appendChild(el('span', 'muted', `${label} `));
    p.appendChild(el('span', undefined, value));
    details.appendChild(p);
  };
  if (u) {
    details.appendChild(el('p', 'usage-words', usageWords(u)));
    // stop_reason is null in message_start only: a stream that ended before message_delta has no final counts
    if (view.outcome !== 'running' && m?.stop_reason === null)
      details.appendChild(el('p', 'muted', 'Counts from message_start only: the stream ended before message_delta.'));
  }
  if (m?.stop_details)
    line(
      'Refusal:',
      (m.stop_details.category ? `${m.stop_details.category}` : 'no category') +
        (m.stop_details.explanation ? `: ${m.stop_details.explanation}` : ''),
    );
  line('Stop sequence:', m?.stop_sequence ?? undefined);
  line('Service tier:', u?.service_tier ?? undefined);
  const tools = u?.server_tool_use;
  if (tools && (tools.web_search_requests || tools.web_fetch_requests))
    line(
      'Server tools:',
      `${count(tools.web_search_requests ?? 0, 'web search', 'web searches')}, ` +
        count(tools.web_fetch_requests ?? 0, 'web fetch', 'web fetches'),
    );
  line('Inference geo:', u?.inference_geo ?? undefined);
  if (m?.container) line('Container:', `${m.container.id}, expires ${m.container.expires_at}`);
  line('Message:', m?.id);
  line('First token:', view.timings.firstTokenMs !== undefined ? ms(view.timings.firstTokenMs) : undefined);
}

const seconds = (t: number | undefined) => (t === undefined ? undefined : `${(t / 1000).toFixed(2)} s`);
const ms = (t: number | undefined) => (t === undefined ? '—' : `${t} ms`);
