// The offline demo: a local server (127.0.0.1, a free port) that answers every call the extension makes,
// with no account and no key to type. Messages and token counts are answered here (replies.ts: they say no
// model ran, and follow the request's shape); session resources, rate limits, administration and compliance
// come from the same simulation the tests' fake of the service uses (service.ts), with sample data that can
// be edited while the demo runs. Message Batches are simulated there too (batches.ts), answered with the demo's
// replies.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { estimateTokens } from '../tokens/estimate';
import { SimulatedPromptCache, type CacheUsage } from './promptCache';
import { demoReply } from './replies';
import { makeResources, SimulatedService, type Reply } from './service';

/** The keys the demo takes (set for the window while it runs; never saved). */
export const DEMO_KEYS = {
  api: 'demo',
  admin: 'sk-vendor-admin-demo',
  compliance: 'sk-vendor-api01-demo',
} as const;
/** The session the demo has, with a resource of each type. */
export const DEMO_SESSION = 'ses_demo';
/** The workspace whose rate-limit overrides the demo shows. */
export const DEMO_WORKSPACE = 'wrkspc_demo';

export interface DemoServer {
  url: string;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

/**
 * Starts the demo backend; `delayMs` paces the streamed events so the streaming can be watched, and a message
 * batch takes `batchProcessingMs` (default 8 s) to end, so its cells can be seen queued first.
 */
export async function startDemoServer(o: { delayMs?: number; batchProcessingMs?: number } = {}): Promise<DemoServer> {
  const delayMs = o.delayMs ?? 20;
  // the demo's own prompt cache, so that a second identical run shows reads (its replies say it is simulated)
  const promptCache = new SimulatedPromptCache(estimateTokens);
  const service = new SimulatedService({
    apiKey: DEMO_KEYS.api,
    adminKey: DEMO_KEYS.admin,
    keys: {
      [DEMO_KEYS.compliance]: [
        'read:compliance_activities',
        'read:compliance_org_data',
        'read:compliance_user_data',
        'delete:compliance_user_data',
      ],
    },
    activities: 250,
    sessions: [[DEMO_SESSION, makeResources(3, 'demo')]],
    batches: {
      processingMs: o.batchProcessingMs ?? 8000,
      answer: params => ({ message: demoMessage(params, promptCache.usage(params)) }),
    },
  });
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => void answer(service, promptCache, req, res, raw, delayMs));
  });
  server.on('connection', s => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>(resolve => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

async function answer(
  service: SimulatedService,
  promptCache: SimulatedPromptCache,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  raw: string,
  delayMs: number,
) {
  const url = new URL(req.url ?? '/', 'http://demo');
  let body: unknown;
  if (raw) {
    try {
      body = JSON.parse(raw) as unknown;
    } catch {
      return problem(res, 400, 'invalid_request_error', 'the request body is not valid JSON');
    }
  }
  const request = { method: req.method ?? 'GET', url, headers: req.headers, body };
  const gate = service.admit(request);
  if ('reply' in gate) return reply(res, gate.reply);
  const path = url.pathname;
  if (req.method === 'POST' && (path === '/v1/messages' || path === '/v1/messages/count_tokens')) {
    if (!body || typeof body !== 'object' || Array.isArray(body))
      return problem(res, 400, 'invalid_request_error', 'the request body is not a JSON object');
    const b = body as Json;
    if (!Array.isArray(b.messages) || !b.messages.length)
      return problem(res, 400, 'invalid_request_error', 'messages: at least one message is required');
    if (path.endsWith('/count_tokens')) return send(res, 200, { input_tokens: estimateTokens(b) });
    const message = demoMessage(b, promptCache.usage(b));
    if (b.stream !== true) return send(res, 200, message);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'request-id': requestId(), 'cache-control': 'no-cache' });
    for (const e of demoEvents(message)) {
      if (res.destroyed) return;
      res.write(`event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`);
      if (delayMs) await new Promise(r => setTimeout(r, delayMs));
    }
    res.end();
    return;
  }
  const routed = service.route(request, gate.scopes);
  if (routed) return reply(res, routed, gate.headers);
  return problem(res, 404, 'not_found_error', `no route for ${req.method ?? 'GET'} ${path}`);
}

function demoMessage(body: Json, cache: CacheUsage): Json {
  const { content, stop_reason } = demoReply(body);
  const chars = content.reduce((n, b) => n + JSON.stringify(b).length, 0);
  return {
    id: `msg_demo_${Date.now().toString(36)}`,
    type: 'message',
    role: 'assistant',
    model: body.model,
    content,
    stop_reason,
    stop_sequence: null,
    usage: { ...cache, output_tokens: Math.ceil(chars / 4) },
  };
}

/** The stream events of a message, as the service sends them (doc1: message_start … message_stop). */
function demoEvents(message: Json): { event: string; data: unknown }[] {
  const content = message.content as Json[];
  const usage = message.usage as Json;
  const out: { event: string; data: unknown }[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } },
      },
    },
  ];
  const delta = (index: number, d: Json) =>
    out.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: d } });
  content.forEach((block, index) => {
    const empty =
      block.type === 'text'
        ? { type: 'text', text: '' }
        : block.type === 'thinking'
          ? { type: 'thinking', thinking: '', signature: '' }
          : { ...block, input: {} };
    out.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: empty } });
    const whole =
      block.type === 'text'
        ? String(block.text)
        : block.type === 'thinking'
          ? String(block.thinking)
          : JSON.stringify(block.input);
    for (const piece of whole.match(/[\s\S]{1,12}/g) ?? []) {
      if (block.type === 'text') delta(index, { type: 'text_delta', text: piece });
      else if (block.type === 'thinking') delta(index, { type: 'thinking_delta', thinking: piece });
      else delta(index, { type: 'input_json_delta', partial_json: piece });
    }
    if (block.type === 'thinking') delta(index, { type: 'signature_delta', signature: String(block.signature) });
    out.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  out.push(
    {
      event: 'message_delta',
      data: {
        type: 'message_delta',
        delta: { stop_reason: message.stop_reason, stop_sequence: null },
        usage: { output_tokens: usage.output_tokens },
      },
    },
    { event: 'message_stop', data: { type: 'message_stop' } },
  );
  return out;
}

function requestId(): string {
  return `req_demo_${Math.random().toString(36).slice(2, 12)}`;
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': requestId() });
  res.end(JSON.stringify(body));
}

function problem(res: http.ServerResponse, status: number, type: string, message: string): void {
  send(res, status, { type: 'error', error: { type, message } });
}

function reply(res: http.ServerResponse, r: Reply, headers: Record<string, string> = {}): void {
  const type = r.lines ? 'application/x-jsonl' : 'application/json';
  res.writeHead(r.status, { 'content-type': type, 'request-id': requestId(), ...headers, ...r.headers });
  res.end(r.lines ? r.lines.map(l => `${l}\n`).join('') : JSON.stringify(r.body));
}
