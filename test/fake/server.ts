// A local fake of the service, following the spec (docs/spec.md): messages (JSON and SSE), token
// counting, session resources, rate limits; auth and version-header checks; error bodies with request-id;
// rate-limit headers and a per-minute request limit (requestLimit); Message Batches (src/core/demo/batches.ts:
// in_progress for batchProcessingMs, results shuffled, #errored and #expired per request, cancel, expiry); the
// administration interface (src/core/demo/admin.ts) and the compliance interface with its keys, scopes and
// shared budget (src/core/demo/compliance.ts), simulations the offline demo serves too; the models list
// (test/fake/models.ts); and fault injection. Used by the unit tests, the VS Code suites and the benchmarks.
// Listens on 127.0.0.1 only.
//
// Scenario words in the last user message steer a streamed reply (handy in the demo too):
//   #thinking  a thinking block first        #tool      a tool_use block (stop_reason tool_use)
//   #cite      a text block with a citation  #long=N    N text deltas       #slow=MS  MS between events
//   #cut       connection cut mid-stream      #error     an `error` event mid-stream
//   #stall     stops sending mid-stream       #refusal   stop_reason refusal   #pause  stop_reason pause_turn
//   #linger    sends the whole reply, then keeps the body open (never ends it) after message_stop
//   #cyber     with #refusal: stop_details with a category and an explanation (null and null without it)
//   #xss       text, thinking and tool input carrying script and event-handler payloads
//   #escapes   text and stop_reason carrying terminal controls (TERMINAL_ESCAPES: a hyperlink, a cleared screen…)
//   #json      the reply text is a JSON object, {"answer": "<what was said>"}
//   #flaky     every second request of the same body answers "Sorry, I cannot help with that." instead
//   #script=NAME  (in the first user message) a model that calls tools per a script, a turn at a time (toolScripts.ts)
// A judge's request (a rubric assertion's: it asks for the verdict schema) is answered by the stand-in judge's
// rule (src/core/demo/judge.ts): the phrases its <criteria> quote, looked for in its <reply>.
// The co-author's requests (Generate Test Cases, Improve Prompt: known by the schema they ask for) are answered by
// the stand-in co-author's rule (src/core/demo/coauthor.ts), which has words of its own (#malformed, #fewer…).
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SimulatedAdmin } from '../../src/core/demo/admin';
import type { SimulatedBatches } from '../../src/core/demo/batches';
import { SlidingBudget, type RateOptions } from '../../src/core/demo/budget';
import { standInCoauthor } from '../../src/core/demo/coauthor';
import type { SimulatedCompliance } from '../../src/core/demo/compliance';
import { standInVerdict } from '../../src/core/demo/judge';
import { SimulatedPromptCache, type CacheUsage } from '../../src/core/demo/promptCache';
import { makeResources, SimulatedService, type Reply, type Resource } from '../../src/core/demo/service';
import type { ServiceModel } from '../../src/core/models/types';
import { fakeModels } from './models';
import { scriptedContent, type ScriptTurn } from './toolScripts';

/**
 * What a hostile reply carries to a terminal (#escapes): an OSC 8 hyperlink, a window title set by OSC and ended
 * by BEL, a CSI that clears the screen, a BEL, and the C1 CSI U+009B turning text red.
 */
export const TERMINAL_ESCAPES =
  '\x1b]8;;https://evil.example/\x1b\\click me\x1b]8;;\x1b\\ \x1b]0;pwned\x07 \x1b[2J\x1b[H \x07 \u009b31mred';

export interface FakeRequest {
  method: string;
  path: string;
  /** the last value of each parameter (`params` has them all, e.g. every `activity_types[]`) */
  query: Record<string, string>;
  params: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: unknown;
  at: number;
  /** the status it was answered with, once the answer is sent */
  status?: number;
  /** when the last byte of the answer was handed to the socket */
  answeredAt?: number;
  /** the client's port: two requests with the same one came over one kept-alive connection */
  clientPort?: number;
  /** when the connection of this exchange closed (answered, cut, or closed by the client) */
  closedAt?: number;
}

/** A fault queued with `fail`: an error answer, a request that is never answered, or an answer without end. */
export type Fault = ErrorFault | StallFault | EndlessFault;

interface ErrorFault {
  /** applies to requests whose path ends with this (default: any) */
  path?: string;
  /** and whose method is this (default: any) */
  method?: string;
  status: number;
  errorType?: string;
  message?: string;
  headers?: Record<string, string>;
  /** a raw body instead of the spec's error body */
  rawBody?: string;
}

/** Accepts the request and never answers (no status line): the socket stays open until the client closes it. */
interface StallFault {
  path?: string;
  stall: true;
  /** matching requests answered normally before the one that stalls (default 0) */
  after?: number;
}

/**
 * Answers with `status` (default 200) and a body that never ends: `head`, then `repeat` again and again, as fast as
 * the client reads, until it closes the connection. An endless JSON body (`head: '{"data": ['`, `repeat: '{},'`), an
 * event stream whose line never ends (`head: 'event: message_start\ndata: '`, `repeat: 'x'`), one of endless events,
 * a results line or an error page without end.
 */
interface EndlessFault {
  path?: string;
  method?: string;
  status?: number;
  headers?: Record<string, string>;
  endless: { head?: string; repeat: string };
}

export interface FakeOptions {
  apiKey?: string;
  adminKey?: string;
  /** default delay between streamed events, ms */
  eventDelayMs?: number;
  /** Compliance Access Keys and their scopes (default: a full key and a read-only one, see compliance.ts) */
  complianceKeys?: Record<string, readonly string[]>;
  /** Activity Feed records (default 2000; generated on demand, so 100,000+ is fine) */
  activities?: number;
  /** the budget all compliance keys and endpoints share (default 600 requests per 60,000 ms) */
  complianceRate?: RateOptions;
  /** linked organizations in the compliance tree (default 7; over 1,000 the list fails with a 500) */
  organizationsCount?: number;
  /** how long an idle keep-alive connection stays open (Node's default is 5 s; a client must not wait on it) */
  keepAliveMs?: number;
  /** what `GET /v1/models` lists (default: models.ts, with two models the built-in table does not know) */
  models?: ServiceModel[];
  /** how long a message batch stays in_progress before it ends (default 300 ms) */
  batchProcessingMs?: number;
  /** how long after creation a batch expires, ending what it has not reached as `expired` (default 24 hours) */
  batchExpiresAfterMs?: number;
  /**
   * The messages interface's request limit (every request but compliance's, which has its own budget): over
   * it, a 429 with retry-after; every answer carries vendor-ratelimit-requests-* (default 50,000 a minute)
   */
  requestLimit?: RateOptions;
  /** tool-loop scripts besides the built-in ones (toolScripts.ts), named by `#script=NAME` */
  toolScripts?: Record<string, ScriptTurn[]>;
}

export interface Fake {
  url: string;
  apiKey: string;
  adminKey: string;
  requests: FakeRequest[];
  /** queue a fault for the next matching request(s) */
  fail(fault: Fault, times?: number): void;
  sessions: Map<string, Resource[]>;
  /** the administration interface's state: organization, workspaces, users, invites */
  admin: SimulatedAdmin;
  /** the compliance interface's state: keys, the budget and its log, activities, chats, projects, files */
  compliance: SimulatedCompliance;
  /** Message Batches made so far */
  batches: SimulatedBatches;
  /** the messages interface's request limit and its log (requestLimit) */
  requestBudget: SlidingBudget;
  /** forgets recorded requests, queued faults, both budgets' logs, the batches and the prompt cache */
  clear(): void;
  close(): Promise<void>;
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  409: 'conflict_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};
const COUNT_FIELDS = new Set(['messages', 'model', 'system', 'thinking', 'tools', 'cache_control']);

export async function startFake(opts: FakeOptions = {}): Promise<Fake> {
  const apiKey = opts.apiKey ?? 'test-key';
  const adminKey = opts.adminKey ?? 'sk-vendor-admin-test';
  const requests: FakeRequest[] = [];
  /** how many times each body has been asked (#flaky) */
  const seen: Seen = new Map();
  const faults: Fault[] = [];
  const service = new SimulatedService({
    apiKey,
    adminKey,
    sessions: [
      ['ses_demo', makeResources(5, 'demo')],
      ['ses_big', makeResources(2500, 'big')],
    ],
    ...(opts.complianceKeys ? { keys: opts.complianceKeys } : {}),
    ...(opts.activities !== undefined ? { activities: opts.activities } : {}),
    ...(opts.complianceRate ? { rate: opts.complianceRate } : {}),
    ...(opts.organizationsCount !== undefined ? { organizations: opts.organizationsCount } : {}),
    models: opts.models ?? fakeModels(),
    batches: {
      processingMs: opts.batchProcessingMs ?? 300,
      ...(opts.batchExpiresAfterMs !== undefined ? { expiresAfterMs: opts.batchExpiresAfterMs } : {}),
      // a request in a batch is answered as the same request sent alone would be
      answer: params => {
        const refused = refusal(params);
        if (refused) return { error: refused };
        const answer = standInVerdict(params) ?? standInCoauthor(params);
        if (answer !== undefined) return { message: answerMessage(params, answer) };
        return { message: planReply(params, promptCache.usage(params), seen).message };
      },
    },
  });
  const { admin, compliance, sessions, batches } = service;
  const requestBudget = new SlidingBudget(opts.requestLimit ?? { limit: 50_000, windowMs: 60_000 });
  /** the rate-limit headers of each answer, set when its request was counted */
  const rateHeaders = new WeakMap<http.ServerResponse, Record<string, string>>();
  // breakpoints write on a first call and read on an identical second one (core/demo/promptCache.ts)
  const promptCache = new SimulatedPromptCache(countTokens);
  let n = 0;
  const sockets = new Set<import('node:net').Socket>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', c => chunks.push(c as Buffer));
    req.on('end', () => {
      void handle(req, res, Buffer.concat(chunks).toString('utf8')).catch(e => {
        if (!res.headersSent) send(res, 500, { type: 'error', error: { type: 'api_error', message: String(e) } });
      });
    });
  });
  if (opts.keepAliveMs !== undefined) server.keepAliveTimeout = opts.keepAliveMs;
  server.on('connection', s => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  function headers(extra: Record<string, string> = {}, res?: http.ServerResponse): Record<string, string> {
    n++;
    return {
      'request-id': `req_fake_${String(n).padStart(6, '0')}`,
      'vendor-organization-id': 'org_fake',
      ...(res ? rateHeaders.get(res) : {}),
      ...extra,
    };
  }
  function send(res: http.ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}) {
    const h = headers(extra, res);
    // error bodies carry the request id too (doc3 §9.5), named as the public API names it
    const isError = !!body && typeof body === 'object' && (body as { type?: unknown }).type === 'error';
    const text =
      typeof body === 'string' ? body : JSON.stringify(isError ? { ...body, request_id: h['request-id'] } : body);
    res.writeHead(status, { 'content-type': 'application/json', ...h });
    res.end(text);
  }
  function error(
    res: http.ServerResponse,
    status: number,
    message: string,
    type = ERROR_TYPES[status] ?? 'api_error',
    extra: Record<string, string> = {},
  ) {
    send(res, status, { type: 'error', error: { type, message } }, extra);
  }
  function reply(res: http.ServerResponse, r: Reply, extra: Record<string, string> = {}) {
    if (!r.lines) return send(res, r.status, r.body, { ...extra, ...r.headers });
    res.writeHead(r.status, { 'content-type': 'application/x-jsonl', ...headers({ ...extra, ...r.headers }, res) });
    void writeLines(res, r.lines);
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, raw: string) {
    const u = new URL(req.url ?? '/', 'http://fake');
    let body: unknown = undefined;
    if (raw) {
      try {
        body = JSON.parse(raw);
      } catch {
        return error(res, 400, 'request body is not valid JSON');
      }
    }
    const rec: FakeRequest = {
      method: req.method ?? 'GET',
      path: u.pathname,
      query: Object.fromEntries(u.searchParams),
      params: u.searchParams,
      headers: req.headers,
      body,
      at: Date.now(),
      ...(req.socket.remotePort !== undefined ? { clientPort: req.socket.remotePort } : {}),
    };
    requests.push(rec);
    res.on('finish', () => {
      rec.status = res.statusCode;
      rec.answeredAt = Date.now();
    });
    res.on('close', () => (rec.closedAt = Date.now()));

    // auth and the version header come before anything else, faults included (doc3 §5 rule 5, §8)
    const request = { method: req.method ?? 'GET', url: u, headers: req.headers, body };
    const gate = service.admit(request);
    if ('reply' in gate) return reply(res, gate.reply);
    const { scopes, headers: extra } = gate;
    // the messages interface's limit (compliance has its own budget, counted in admit)
    if (!u.pathname.startsWith('/v1/compliance')) {
      const taken = requestBudget.take();
      rateHeaders.set(res, taken.headers);
      if (!taken.ok) return error(res, 429, `more than ${requestBudget.rate.limit} requests in the window`);
    }

    const fi = faults.findIndex(
      f => (!f.path || u.pathname.endsWith(f.path)) && (!('method' in f) || !f.method || f.method === req.method),
    );
    const f = fi >= 0 ? faults[fi] : undefined;
    if (f && 'stall' in f && f.after) {
      f.after--; // this one is answered as usual; a later matching request stalls
    } else if (f) {
      faults.splice(fi, 1);
      if ('stall' in f) return; // never answered: the exchange ends when the client closes the connection
      if ('endless' in f) {
        // the answer ends when the client closes the connection: that is when it was last written to
        res.on('close', () => (rec.answeredAt = Date.now()));
        res.writeHead(f.status ?? 200, headers({ 'content-type': 'application/json', ...extra, ...f.headers }, res));
        void writeEndless(res, f.endless.head ?? '', f.endless.repeat);
        return;
      }
      if (f.rawBody !== undefined) {
        res.writeHead(f.status, headers({ ...extra, ...f.headers }, res));
        res.end(f.rawBody);
        return;
      }
      return error(res, f.status, f.message ?? `injected ${f.status}`, f.errorType, { ...extra, ...f.headers });
    }

    if (req.method === 'POST' && u.pathname === '/v1/messages/count_tokens') {
      if (!body || typeof body !== 'object') return error(res, 400, 'body must be an object');
      for (const k of Object.keys(body))
        if (!COUNT_FIELDS.has(k)) return error(res, 400, `${k}: Extra inputs are not permitted`);
      const b = body as Record<string, unknown>;
      if (!Array.isArray(b.messages)) return error(res, 400, 'messages: Field required');
      if (!b.messages.length) return error(res, 400, 'messages: at least one message is required');
      if (typeof b.model !== 'string') return error(res, 400, 'model: Field required');
      return send(res, 200, { input_tokens: countTokens(b) });
    }
    if (req.method === 'POST' && u.pathname === '/v1/messages') {
      const b = body as Record<string, unknown> | undefined;
      if (!b || !Array.isArray(b.messages) || typeof b.model !== 'string' || typeof b.max_tokens !== 'number') {
        return error(res, 400, 'max_tokens, messages and model are required');
      }
      if (!b.messages.length) return error(res, 400, 'messages: at least one message is required');
      const refused = refusal(b);
      if (refused) return error(res, 404, refused.message, refused.type);
      const answer = standInVerdict(b) ?? standInCoauthor(b);
      if (answer !== undefined) return send(res, 200, answerMessage(b, answer));
      const plan = planReply(b, promptCache.usage(b), seen, opts.toolScripts);
      if (b.stream === true) return stream(res, plan, opts.eventDelayMs ?? 0, rateHeaders.get(res));
      return send(res, 200, plan.message);
    }
    const routed = service.route(request, scopes);
    if (routed) return reply(res, routed, extra);
    return error(res, 404, `no route for ${req.method} ${u.pathname}`);
  }

  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    adminKey,
    requests,
    sessions,
    admin,
    compliance,
    batches,
    requestBudget,
    fail(f, times = 1) {
      for (let i = 0; i < times; i++) faults.push({ ...f });
    },
    clear() {
      requests.length = 0;
      faults.length = 0;
      seen.clear();
      compliance.resetRate();
      requestBudget.reset();
      batches.clear();
      promptCache.clear();
    },
    close: () =>
      new Promise<void>(resolve => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A request the service refuses whatever else it holds: a retired model (doc3 §9.4). */
function refusal(b: Record<string, unknown>): { type: string; message: string } | undefined {
  if (typeof b.model === 'string' && b.model.includes('3-haiku-2024'))
    return { type: 'not_found_error', message: `model: ${b.model} has been retired` };
  return undefined;
}

/** `head`, then `repeat` for as long as the client reads, in chunks of about 64 KB, waiting when the socket is full. */
async function writeEndless(res: http.ServerResponse, head: string, repeat: string): Promise<void> {
  const chunk = repeat.repeat(Math.max(1, Math.floor(65_536 / repeat.length)));
  if (head) res.write(head);
  while (!res.destroyed && !res.writableEnded) {
    if (!res.write(chunk)) await drained(res);
  }
}

/** When the socket can take more, or the connection closed. */
function drained(res: http.ServerResponse): Promise<void> {
  return new Promise<void>(resolve => {
    const done = () => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.on('drain', done).on('close', done);
  });
}

/** A JSON Lines body, a chunk of lines at a time, waiting for the socket when it is full. */
async function writeLines(res: http.ServerResponse, lines: readonly string[]): Promise<void> {
  const CHUNK = 256;
  for (let i = 0; i < lines.length && !res.destroyed; i += CHUNK) {
    const text = `${lines.slice(i, i + CHUNK).join('\n')}\n`;
    if (!res.write(text)) await drained(res);
  }
  res.end();
}

/** A deterministic stand-in for the service's token count: about four characters a token. */
function countTokens(b: Record<string, unknown>): number {
  const parts = [b.system, b.messages, b.tools, b.thinking].filter(x => x !== undefined);
  return Math.max(1, Math.ceil(JSON.stringify(parts).length / 4));
}

interface Plan {
  message: Record<string, unknown> & { content: Record<string, unknown>[] };
  deltasPerText: string[][];
  fault?: 'cut' | 'error' | 'stall' | 'linger';
  delayMs?: number;
}

function lastUserText(b: Record<string, unknown>): string {
  const msgs = b.messages as { role?: string; content?: unknown }[];
  for (let i = msgs.length - 1; i >= 0; i--) {
    const m = msgs[i];
    if (m?.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content;
    if (Array.isArray(m.content))
      return m.content
        .map(c => (c && typeof c === 'object' && 'text' in c ? String((c as { text: unknown }).text) : ''))
        .join(' ');
  }
  return '';
}

/**
 * A non-streamed reply of one text block (a stand-in's: the judge's verdict, the co-author's answer), with usage as
 * the fake counts it.
 */
function answerMessage(b: Record<string, unknown>, text: string) {
  return {
    id: `msg_fake_${Date.now().toString(36)}`,
    type: 'message',
    role: 'assistant',
    model: b.model,
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: countTokens(b), output_tokens: Math.max(1, Math.ceil(text.length / 4)) },
  };
}

/** How many times each body (stream flag aside) has been asked, for #flaky. */
type Seen = Map<string, number>;

function planReply(
  b: Record<string, unknown>,
  cache: CacheUsage,
  seen: Seen,
  scripts?: Record<string, ScriptTurn[]>,
): Plan {
  const scripted = scriptedContent(b.messages as { role?: string; content?: unknown }[], scripts);
  if (scripted) {
    const deltas = scripted.content.map(c =>
      c.type === 'text' ? chunk(String(c.text), 6) : chunk(JSON.stringify(c.input), 5),
    );
    const out = JSON.stringify(scripted.content).length;
    const message = {
      id: `msg_fake_${Date.now().toString(36)}`,
      type: 'message',
      role: 'assistant',
      model: b.model,
      content: scripted.content,
      stop_reason: scripted.stop,
      stop_sequence: null,
      usage: { ...cache, output_tokens: Math.max(1, Math.ceil(out / 4)), service_tier: 'standard' },
    };
    // #slow=MS in the first user message: a scripted loop's every turn streams slowly (Cancel mid-loop)
    const slow = Number(/#slow=(\d+)/.exec(JSON.stringify((b.messages as unknown[])[0]))?.[1]);
    return { message, deltasPerText: deltas, ...(slow ? { delayMs: slow } : {}) };
  }
  const said = lastUserText(b);
  const words = (said.match(/#\w+(=\d+)?/g) ?? []).map(w => w.slice(1));
  const has = (w: string) => words.some(x => x === w || x.startsWith(`${w}=`));
  const { stream: _stream, ...asked } = b;
  const key = JSON.stringify(asked);
  const nth = (seen.get(key) ?? 0) + 1;
  seen.set(key, nth);
  const declined = has('flaky') && nth % 2 === 0;
  const num = (w: string) => Number(words.find(x => x.startsWith(`${w}=`))?.split('=')[1] ?? NaN);
  const xss = has('xss');
  const content: Record<string, unknown>[] = [];
  const deltas: string[][] = [];
  if (has('thinking')) {
    const t = xss ? 'Thinking <img src=x onerror="alert(1)"> about it.' : 'Let me think about this step by step.';
    content.push({ type: 'thinking', thinking: t, signature: 'sig_fake_abc' });
    deltas.push(chunk(t, 8));
  }
  const longN = num('long');
  let text: string;
  if (Number.isFinite(longN) && longN > 0) {
    const pieces = Array.from({ length: longN }, (_, i) => `w${i} `);
    text = pieces.join('');
    deltas.push(pieces);
  } else {
    const plain = said.replace(/#\w+(=\d+)?/g, '').trim();
    text = xss
      ? 'Hello <script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"> **bold** ' +
        '[link](javascript:alert(1))'
      : has('escapes')
        ? `Hello ${TERMINAL_ESCAPES}`
        : declined
          ? 'Sorry, I cannot help with that.'
          : has('json')
            ? JSON.stringify({ answer: plain || '(nothing)' })
            : `Hello! You said: ${plain || '(nothing)'}`;
    deltas.push(chunk(text, 6));
  }
  const textBlock: Record<string, unknown> = { type: 'text', text };
  if (has('cite'))
    textBlock.citations = [
      {
        type: 'char_location',
        cited_text: 'the cited text',
        document_index: 0,
        document_title: 'Doc',
        start_char_index: 0,
        end_char_index: 14,
      },
    ];
  content.push(textBlock);
  let stop = 'end_turn';
  if (has('tool')) {
    const input = xss ? { q: '<script>alert(1)</script>' } : { location: 'Paris', unit: 'celsius' };
    content.push({ type: 'tool_use', id: 'toolu_fake_01', name: 'get_weather', input });
    deltas.push(chunk(JSON.stringify(input), 5));
    stop = 'tool_use';
  }
  if (has('escapes')) stop = `end_turn ${TERMINAL_ESCAPES}`;
  if (has('refusal')) stop = 'refusal';
  if (has('pause')) stop = 'pause_turn';
  const message = {
    id: `msg_fake_${Date.now().toString(36)}`,
    type: 'message',
    role: 'assistant',
    model: b.model,
    content,
    stop_reason: stop,
    stop_sequence: null,
    ...(stop === 'refusal' ? { stop_details: refusalDetails(has('cyber')) } : {}),
    usage: { ...cache, output_tokens: Math.max(1, Math.ceil(text.length / 4)), service_tier: 'standard' },
  };
  const fault = has('cut')
    ? 'cut'
    : has('error')
      ? 'error'
      : has('stall')
        ? 'stall'
        : has('linger')
          ? 'linger'
          : undefined;
  const slow = num('slow');
  return {
    message,
    deltasPerText: deltas,
    ...(fault ? { fault } : {}),
    ...(Number.isFinite(slow) ? { delayMs: slow } : {}),
  };
}

function refusalDetails(cyber: boolean) {
  return cyber
    ? { type: 'refusal', category: 'cyber', explanation: 'The request asked for working exploit code.' }
    : { type: 'refusal', category: null, explanation: null };
}

function chunk(s: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out.length ? out : [''];
}

/** The SSE events of a streamed reply in the public Messages streaming format. */
export function sseEvents(plan: Plan): { event: string; data: unknown }[] {
  const m = plan.message;
  const ev: { event: string; data: unknown }[] = [];
  const usage = m.usage as Record<string, number>;
  ev.push({
    event: 'message_start',
    data: {
      type: 'message_start',
      message: { ...m, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
    },
  });
  m.content.forEach((block, index) => {
    const pieces = plan.deltasPerText[index] ?? [];
    let start: Record<string, unknown>;
    if (block.type === 'text') start = { type: 'text', text: '' };
    else if (block.type === 'thinking') start = { type: 'thinking', thinking: '', signature: '' };
    else start = { ...block, input: {} };
    ev.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: start } });
    if (index === 0) ev.push({ event: 'ping', data: { type: 'ping' } });
    for (const p of pieces) {
      const delta =
        block.type === 'text'
          ? { type: 'text_delta', text: p }
          : block.type === 'thinking'
            ? { type: 'thinking_delta', thinking: p }
            : { type: 'input_json_delta', partial_json: p };
      ev.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta } });
    }
    if (block.type === 'thinking')
      ev.push({
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } },
      });
    if (block.type === 'text' && Array.isArray(block.citations)) {
      for (const c of block.citations)
        ev.push({
          event: 'content_block_delta',
          data: { type: 'content_block_delta', index, delta: { type: 'citations_delta', citation: c } },
        });
    }
    ev.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  ev.push({
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: {
        stop_reason: m.stop_reason,
        stop_sequence: m.stop_sequence,
        ...(m.stop_details ? { stop_details: m.stop_details } : {}),
      },
      usage: { output_tokens: usage.output_tokens },
    },
  });
  ev.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return ev;
}

export function encodeSse(events: { event: string; data: unknown }[]): string {
  return events.map(e => `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`).join('');
}

async function stream(res: http.ServerResponse, plan: Plan, defaultDelay: number, rate?: Record<string, string>) {
  const events = sseEvents(plan);
  const delay = plan.delayMs ?? defaultDelay;
  const h = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...rate, ...headersForStream() };
  res.writeHead(200, h);
  const faultAt = Math.floor(events.length / 2);
  let closed = false;
  res.on('close', () => {
    closed = true;
  });
  // batch events into writes when there is no delay, as a real server's TCP writes would
  const batch: string[] = [];
  for (let i = 0; i < events.length; i++) {
    if (closed) return;
    if (plan.fault && plan.fault !== 'linger' && i === faultAt) {
      if (plan.fault === 'cut') {
        // flush what was sent so far, then drop the connection mid-stream
        res.write(batch.splice(0).join('') || ': cut\n', () => setTimeout(() => res.socket?.destroy(), 20));
        return;
      }
      if (batch.length) res.write(batch.splice(0).join(''));
      if (plan.fault === 'error') {
        res.end(
          encodeSse([
            { event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } },
          ]),
        );
        return;
      }
      if (plan.fault === 'stall') return; // keeps the socket open and silent
    }
    batch.push(encodeSse([events[i]!]));
    if (delay > 0) {
      res.write(batch.splice(0).join(''));
      // between events: none after the last, so the exchange ends when the reply does
      if (i < events.length - 1) await new Promise(r => setTimeout(r, delay));
    } else if (batch.length >= 64) {
      res.write(batch.splice(0).join(''));
    }
  }
  if (plan.fault === 'linger')
    res.write(batch.join('')); // the body is never ended
  else res.end(batch.join(''));
}

let streamN = 0;
function headersForStream(): Record<string, string> {
  streamN++;
  return { 'request-id': `req_fake_stream_${streamN}`, 'vendor-organization-id': 'org_fake' };
}
