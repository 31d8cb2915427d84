// The run's facts under the toolbar (file, model, status, ids, stop reason, timings) and the usage table.
import type { Message, RunView } from '../../protocol/response';
import { asText } from '../../core/text';
import { $, el } from '../common/dom';

export function renderMeta(view: RunView | undefined, m: Message | undefined): void {
  const meta = $('meta');
  meta.replaceChildren();
  if (!view) return;
  const status =
    view.outcome === 'running'
      ? 'streaming…'
      : view.outcome === 'done'
        ? 'done'
        : view.outcome === 'cancelled'
          ? 'cancelled'
          : 'failed';
  const add = (label: string, value: string | undefined, id?: string) => {
    if (value === undefined || value === '') return;
    const span = el('span', 'meta-item');
    if (id) span.id = id;
    span.appendChild(el('span', 'muted', `${label} `));
    span.appendChild(el('span', undefined, value));
    meta.appendChild(span);
  };
  add('file', view.file);
  add('model', m?.model ?? view.model);
  add('status', status, 'meta-status');
  add('id', m?.id);
  add('stop_reason', m?.stop_reason ?? undefined, 'meta-stop');
  if (m?.stop_details)
    add(
      'stop_details',
      m.stop_details.type +
        (m.stop_details.category ? ` (${m.stop_details.category})` : '') +
        (m.stop_details.explanation ? `: ${m.stop_details.explanation}` : ''),
    );
  add('stop_sequence', m?.stop_sequence ?? undefined);
  add('request-id', view.requestId);
  add('first token', view.timings.firstTokenMs !== undefined ? `${view.timings.firstTokenMs} ms` : undefined);
  add('total', view.timings.totalMs !== undefined ? `${(view.timings.totalMs / 1000).toFixed(2)} s` : undefined);
  if (m?.container) add('container', `${m.container.id} (expires ${m.container.expires_at})`);
  const u = m?.usage;
  const usage = $('usage');
  usage.replaceChildren();
  if (u) {
    const t = el('table', 'usage');
    const row = (k: string, v: unknown) => {
      if (v === undefined || v === null) return;
      const tr = el('tr');
      tr.appendChild(el('th', undefined, k));
      tr.appendChild(el('td', undefined, asText(v)));
      t.appendChild(tr);
    };
    row('input tokens', u.input_tokens);
    row('output tokens', u.output_tokens);
    // stop_reason is null in message_start only: a stream that ended before message_delta has no final counts
    if (view.outcome !== 'running' && m?.stop_reason === null)
      row('counts', 'from message_start only: the stream ended before the final message_delta');
    row('cache creation input tokens', u.cache_creation_input_tokens);
    row('cache read input tokens', u.cache_read_input_tokens);
    row('cache creation', u.cache_creation);
    row('service tier', u.service_tier);
    row('server tool use', u.server_tool_use);
    row('inference geo', u.inference_geo);
    usage.appendChild(t);
  }
}
