// `promptwright run FILE [--force] [--prices FILE]`: one request file sent, its reply streamed to stdout (Ctrl-C
// cancels), and its usage, cost and stop reason at the end. A file with errors is not sent unless --force.
import * as fs from 'node:fs';
import { isCaseFile } from '../cases/fileNames';
import { ConfigError, StreamError } from '../api/errors';
import type { Message } from '../api/types';
import { isCountFileName } from '../request/count';
import { formatOf } from '../request/parse';
import { validateText, type Endpoint } from '../request/validate';
import { count } from '../text';
import { usageWords } from '../api/usage';
import { costOf, costWords } from '../cost/cost';
import type { PriceTable } from '../cost/prices';
import { parseArgs, UsageError } from './args';
import { pricesOption } from './prices';
import { toRecords } from '../request/records';
import { clientFromEnv } from './api';
import { describeForCli } from './env';
import { decodeUtf8 } from './files';
import { cancelled, EXIT } from './guard';
import { betasFromEnv, type CliIo } from './io';

/**
 * Reads and validates a request file for the endpoint it is sent to. Errors stop it (printed, undefined
 * returned) unless `force` is set: then they are printed as such and the service decides.
 */
function loadRequest(file: string, io: CliIo, endpoint: Endpoint, force = false): Record<string, unknown> | undefined {
  if (!fs.existsSync(file)) {
    io.stderr.write(`promptwright: no such file: ${file}\n`);
    return undefined;
  }
  const decoded = decodeUtf8(fs.readFileSync(file));
  if ('invalidAt' in decoded) {
    io.stderr.write(`promptwright: ${file}: invalid UTF-8 at byte ${decoded.invalidAt}\n`);
    return undefined;
  }
  const v = validateText(decoded.text, formatOf(file), { betas: betasFromEnv(io.env), endpoint });
  const errors = toRecords(decoded.text, v.problems, file).filter(r => r.severity === 'error');
  for (const r of errors) io.stderr.write(`${r.file}:${r.line}:${r.column}: ${r.severity} ${r.code}: ${r.message}\n`);
  const value = v.parsed.value;
  const isBody = value !== null && typeof value === 'object' && !Array.isArray(value);
  if (errors.length && !(force && isBody)) {
    if (isBody) io.stderr.write('promptwright: not sent (the service would reject it); --force sends it anyway\n');
    return undefined;
  }
  if (errors.length) io.stderr.write(`promptwright: sending despite ${count(errors.length, 'error')} (--force)\n`);
  return value as Record<string, unknown>;
}

export async function runRun(args: string[], io: CliIo, cwd = process.cwd()): Promise<number> {
  let force: boolean;
  let file: string | undefined;
  let prices: PriceTable;
  try {
    const p = parseArgs(args, ['prices'], ['force']);
    if (p.positionals.length !== 1) throw new UsageError(p.positionals.length ? 'one FILE at a time' : 'expected FILE');
    force = p.switches.has('force');
    file = p.positionals[0];
    prices = pricesOption(p, cwd);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr.write(`promptwright run: ${e.message}\nusage: promptwright run FILE [--force] [--prices FILE]\n`);
    return 2;
  }
  if (!file) return 2;
  if (isCaseFile(file)) {
    io.stderr.write(`promptwright run: ${file} is a case file: run its cases with \`promptwright test ${file}\`\n`);
    return EXIT.refused;
  }
  if (isCountFileName(file)) {
    io.stderr.write(
      `promptwright run: ${file} is a count_tokens body (*.count.*): it is counted, not sent; ` +
        `count it with \`promptwright count ${file}\`\n`,
    );
    return EXIT.refused;
  }
  const body = loadRequest(file, io, 'messages', force);
  if (!body) return EXIT.refused;
  const signal = io.signal;
  const out = (s: string) => io.stdout.write(s);
  let kind = '';
  try {
    const stream = await clientFromEnv(io).streamMessage(body, signal ? { signal } : {});
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
    summary(stream.message, io, stream.requestId, { model: String(body.model), prices });
    return 0;
  } catch (e) {
    if (e instanceof StreamError) {
      // the stream had started: what arrived is on stdout; end its line so stderr starts on its own
      out('\n');
      if (cancelled(e, io)) io.stderr.write('promptwright run: Cancelled; the partial reply is above.\n');
      else io.stderr.write(`promptwright run: the stream failed: ${e.describe()}\n`);
      if (io.env.PROMPTWRIGHT_DEBUG && e.detail) io.stderr.write(`[promptwright] stream ended by: ${e.detail}\n`);
      summary(e.partial, io, e.requestId, { model: String(body.model), prices });
      return cancelled(e, io) ? EXIT.cancelled : EXIT.service;
    }
    if (cancelled(e, io)) {
      io.stderr.write('promptwright run: Cancelled.\n');
      return EXIT.cancelled;
    }
    io.stderr.write(`promptwright run: ${describeForCli(e)}\n`);
    return e instanceof ConfigError ? EXIT.refused : EXIT.service;
  }
}

/**
 * The last lines of a run on stderr: stop reason, usage and request-id, then a refusal's details. Usage
 * comes in message_start and is made final by message_delta; a stream that broke before message_delta has
 * only message_start's counts (its output count is a placeholder), and the line says so.
 */
function summary(
  m: Message | undefined,
  io: CliIo,
  requestId: string | undefined,
  priced: { model: string; prices: PriceTable },
): void {
  if (!m) return;
  const cost = costOf(m.usage, priced.model, priced.prices);
  // the usage in words, as the response panel says it: cache reads with their share, writes 5m and 1h apart
  const usage = usageWords(m.usage).replace(/\.$/, '');
  // stop_reason is null in message_start only (doc1 §2.7): set means message_delta arrived
  const final = m.stop_reason !== null;
  const parts = [
    `stop_reason: ${m.stop_reason ?? 'none'}${m.stop_sequence ? ` (${m.stop_sequence})` : ''}`,
    final ? usage : `usage from message_start only (the stream ended before the final message_delta): ${usage}`,
    costWords(cost),
    ...(requestId ? [`request-id ${requestId}`] : []),
  ];
  io.stderr.write(`${parts.join(' · ')}\n`);
  // a refusal says why, as the panel does (doc1 §2.7); the explanation is free text, so it is quoted
  const d = m.stop_details;
  if (d) {
    const explanation = JSON.stringify(d.explanation ?? null);
    io.stderr.write(`stop_details: ${d.type} · category ${d.category ?? 'null'} · explanation ${explanation}\n`);
  }
}
