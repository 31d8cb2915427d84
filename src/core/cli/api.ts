import * as fs from 'node:fs';
import { ApiClient } from '../api/client';
import { describeError, StreamError } from '../api/errors';
import type { Message } from '../api/types';
import { formatOf } from '../request/parse';
import { validateText } from '../request/validate';
import { toRecords } from './check';
import { decodeUtf8 } from './files';
import type { CliIo } from './main';

/** The client from environment variables (the CLI has no SecretStorage). */
export function clientFromEnv(env: Record<string, string | undefined>): ApiClient {
  return new ApiClient({
    baseUrl: env.PROMPTWRIGHT_BASE_URL ?? '',
    ...(env.PROMPTWRIGHT_API_KEY ? { apiKey: env.PROMPTWRIGHT_API_KEY } : {}),
    ...(env.PROMPTWRIGHT_ADMIN_API_KEY ? { adminKey: env.PROMPTWRIGHT_ADMIN_API_KEY } : {}),
    apiVersion: env.PROMPTWRIGHT_API_VERSION || '2023-06-01',
    betas: (env.PROMPTWRIGHT_BETAS ?? '').split(',').map(s => s.trim()).filter(Boolean),
    maxRetries: env.PROMPTWRIGHT_MAX_RETRIES !== undefined && env.PROMPTWRIGHT_MAX_RETRIES !== '' ? Number(env.PROMPTWRIGHT_MAX_RETRIES) : 2,
    ...(env.PROMPTWRIGHT_DEBUG ? { onLog: (l: string) => process.stderr.write(`[promptwright] ${l}\n`) } : {}),
  });
}

/** Reads and validates a request file; on errors prints them and returns undefined. */
function loadRequest(file: string, io: CliIo): Record<string, unknown> | undefined {
  if (!fs.existsSync(file)) { io.stderr.write(`promptwright: no such file: ${file}\n`); return undefined; }
  const decoded = decodeUtf8(fs.readFileSync(file));
  if ('invalidAt' in decoded) { io.stderr.write(`promptwright: ${file}: invalid UTF-8 at byte ${decoded.invalidAt}\n`); return undefined; }
  const betas = (io.env.PROMPTWRIGHT_BETAS ?? '').split(',').map(x => x.trim()).filter(Boolean);
  const v = validateText(decoded.text, formatOf(file), { betas });
  const errors = toRecords(decoded.text, v.problems, file).filter(r => r.severity === 'error');
  if (errors.length) {
    for (const r of errors) io.stderr.write(`${r.file}:${r.line}:${r.column}: ${r.severity} ${r.code}: ${r.message}\n`);
    return undefined;
  }
  return v.parsed.value as Record<string, unknown>;
}

export async function runCount(args: string[], io: CliIo): Promise<number> {
  const file = args[0];
  if (!file) { io.stderr.write('usage: promptwright count FILE\n'); return 2; }
  const body = loadRequest(file, io);
  if (!body) return 1;
  try {
    const r = await clientFromEnv(io.env).countTokens(body);
    io.stdout.write(`${r.input_tokens}\n`);
    return 0;
  } catch (e) {
    io.stderr.write(`promptwright count: ${describeError(e)}\n`);
    return 1;
  }
}

export async function runRun(args: string[], io: CliIo, signal?: AbortSignal): Promise<number> {
  const file = args[0];
  if (!file) { io.stderr.write('usage: promptwright run FILE\n'); return 2; }
  const body = loadRequest(file, io);
  if (!body) return 1;
  const out = (s: string) => io.stdout.write(s);
  let kind = '';
  try {
    const stream = await clientFromEnv(io.env).streamMessage(body, signal ? { signal } : {});
    for await (const ev of stream) {
      if (ev.type === 'content_block_start') {
        const b = ev.content_block;
        kind = b.type;
        if (ev.index > 0) out('\n');
        if (b.type === 'thinking') out('[thinking] ');
        else if (b.type === 'redacted_thinking') out('[redacted thinking]');
        else if (b.type === 'tool_use' || b.type === 'server_tool_use') out(`[${b.type} ${String(b.name)}] `);
        else if (b.type !== 'text') out(`[${b.type}]`);
      } else if (ev.type === 'content_block_delta') {
        const d = ev.delta;
        if (d.type === 'text_delta') out(d.text);
        else if (d.type === 'thinking_delta') out(d.thinking);
        else if (d.type === 'input_json_delta') out(d.partial_json);
      } else if (ev.type === 'content_block_stop' && kind === 'thinking') {
        out('\n[/thinking]');
      }
    }
    out('\n');
    summary(stream.message, io, stream.requestId);
    return 0;
  } catch (e) {
    if (e instanceof StreamError) {
      out('\n');
      io.stderr.write(e.type === 'aborted' ? 'promptwright run: cancelled; the partial reply is above.\n' : `promptwright run: the stream failed: ${e.describe()}; the partial reply is above.\n`);
      summary(e.partial, io, e.requestId);
      return e.type === 'aborted' ? 130 : 1;
    }
    io.stderr.write(`promptwright run: ${describeError(e)}\n`);
    return 1;
  }
}

function summary(m: Message | undefined, io: CliIo, requestId: string | undefined): void {
  if (!m) return;
  const u = m.usage;
  io.stderr.write(`stop_reason: ${m.stop_reason ?? 'none'}${m.stop_sequence ? ` (${m.stop_sequence})` : ''} · input ${u.input_tokens ?? '?'} · output ${u.output_tokens ?? '?'} tokens${u.cache_read_input_tokens ? ` · cache read ${u.cache_read_input_tokens}` : ''}${requestId ? ` · request-id ${requestId}` : ''}\n`);
}
