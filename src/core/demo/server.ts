// The offline demo backend: a small local server (127.0.0.1, a free port) that answers the two calls a
// first look needs, POST /v1/messages (whole or streamed) and POST /v1/messages/count_tokens, with a reply
// that says plainly that no model ran. It lets someone without a key see the panel stream, the tool call
// and the token count; anything else gets the spec's error body saying it is not part of the demo.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { estimateTokens } from '../tokens/scheduler';

export const DEMO_KEY = 'demo';

export interface DemoServer {
  url: string;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

/** Starts the demo backend; `delayMs` paces the streamed events so the streaming can be watched. */
export async function startDemoServer(o: { delayMs?: number } = {}): Promise<DemoServer> {
  const delayMs = o.delayMs ?? 20;
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => void answer(req, res, raw, delayMs));
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

async function answer(req: http.IncomingMessage, res: http.ServerResponse, raw: string, delayMs: number) {
  const path = new URL(req.url ?? '/', 'http://demo').pathname;
  if (req.headers['x-api-key'] !== DEMO_KEY)
    return problem(res, 401, 'authentication_error', `the offline demo takes the key "${DEMO_KEY}"`);
  if (req.method !== 'POST' || (path !== '/v1/messages' && path !== '/v1/messages/count_tokens'))
    return problem(
      res,
      404,
      'not_found_error',
      `${req.method ?? 'GET'} ${path} is not part of the offline demo, which answers messages and count_tokens only`,
    );
  let body: Json;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    body = parsed as Json;
  } catch {
    return problem(res, 400, 'invalid_request_error', 'the request body is not a JSON object');
  }
  if (!Array.isArray(body.messages) || !body.messages.length)
    return problem(res, 400, 'invalid_request_error', 'messages: at least one message is required');
  const inputTokens = estimateTokens(body);
  if (path.endsWith('/count_tokens')) return send(res, 200, { input_tokens: inputTokens });
  const message = demoMessage(body, inputTokens);
  if (body.stream !== true) return send(res, 200, message);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'request-id': requestId(), 'cache-control': 'no-cache' });
  for (const e of demoEvents(message)) {
    if (res.destroyed) return;
    res.write(`event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`);
    if (delayMs) await new Promise(r => setTimeout(r, delayMs));
  }
  res.end();
}

/** The demo's reply: what was asked, said back, and a call of the first tool when the request offers tools. */
function demoMessage(body: Json, inputTokens: number): Json {
  const messages = body.messages as Json[];
  const said = lastUserText(messages);
  const text =
    '**Offline demo**: no model ran, so this reply is canned. ' +
    `Your request asks \`${typeof body.model === 'string' ? body.model : '?'}\` about ` +
    `${messages.length === 1 ? 'one message' : `${messages.length} messages`}; the last one says:\n\n` +
    `> ${said.slice(0, 300) || '(no text)'}\n\n` +
    'To get real replies, set `promptwright.baseUrl` to the service and run **Promptwright: Set API Key**.';
  const content: Json[] = [{ type: 'text', text }];
  const tool = firstTool(body.tools);
  if (tool) content.push({ type: 'tool_use', id: 'toolu_demo_01', name: tool.name, input: tool.input });
  return {
    id: `msg_demo_${Date.now().toString(36)}`,
    type: 'message',
    role: 'assistant',
    model: body.model,
    content,
    stop_reason: tool ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: inputTokens, output_tokens: Math.ceil(text.length / 4) },
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
  content.forEach((block, index) => {
    const empty = block.type === 'text' ? { type: 'text', text: '' } : { ...block, input: {} };
    out.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: empty } });
    const whole = block.type === 'text' ? String(block.text) : JSON.stringify(block.input);
    for (const piece of whole.match(/[\s\S]{1,12}/g) ?? []) {
      const delta =
        block.type === 'text' ? { type: 'text_delta', text: piece } : { type: 'input_json_delta', partial_json: piece };
      out.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta } });
    }
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

function lastUserText(messages: Json[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content;
    if (Array.isArray(m.content)) {
      const texts = (m.content as Json[]).filter(b => b.type === 'text').map(b => String(b.text));
      if (texts.length) return texts.join(' ');
    }
  }
  return '';
}

/** The first custom tool, with an input that fills its schema's required properties with sample values. */
function firstTool(tools: unknown): { name: string; input: Json } | undefined {
  if (!Array.isArray(tools)) return undefined;
  const tool = (tools as Json[]).find(t => typeof t.name === 'string' && t.input_schema);
  if (!tool) return undefined;
  const schema = tool.input_schema as Json;
  const props = (schema.properties ?? {}) as Record<string, Json>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : Object.keys(props).slice(0, 1);
  const sample = (p: Json | undefined): unknown => {
    if (Array.isArray(p?.enum)) return p.enum[0];
    if (p?.type === 'number' || p?.type === 'integer') return 1;
    if (p?.type === 'boolean') return true;
    if (p?.type === 'array') return [];
    if (p?.type === 'object') return {};
    return 'example';
  };
  return { name: tool.name as string, input: Object.fromEntries(required.map(k => [k, sample(props[k])])) };
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
