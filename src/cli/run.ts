// `promptwright run FILE`: one request file sent, its placeholders filled from --var, its reply streamed to stdout
// (Ctrl-C cancels; --format json: the message object, jsonl: each event), and its usage, cost and stop reason at
// the end. A file with errors is not sent unless --force; one that does not parse, never.
import * as fs from 'node:fs';
import { isCaseFile } from '../core/fileNames';
import { fillPlaceholders, placeholderNames } from '../core/cases/placeholders';
import { OTHER_TOOL_FILE } from '../core/request/otherTools';
import { ConfigError, StreamError } from '../core/api/errors';
import type { Message } from '../core/api/types';
import { isCountFileName } from '../core/request/count';
import { formatOf } from '../core/fileNames';
import { validateText, type Endpoint } from '../core/request/validate';
import { count } from '../core/text';
import { usageWords } from '../core/api/usage';
import { costOf, costWords } from '../core/cost/cost';
import type { PriceTable } from '../core/cost/prices';
import { all, formatOption, one, parseArgs, UsageError, type Command, type Parsed } from './args';
import { PRICES, pricesOption } from './prices';
import { toRecords } from '../core/request/records';
import { clientFromEnv } from './api';
import { describeForCli } from '../core/environment';
import { decodeUtf8 } from '../core/files';
import { cancelled, CTRL_C, EXIT } from './guard';
import { betasFromEnv, type CliIo } from './io';

/** Rules that say the file does not parse into one body: `--force` sends what the rules refuse, never a guess. */
const UNREADABLE = new Set([
  'empty-file',
  'not-an-object',
  'json-syntax',
  'json-comment',
  'json-trailing-comma',
  'yaml-syntax',
  'yaml-multiple-documents',
  'yaml-alias',
  'invalid-utf8',
  OTHER_TOOL_FILE,
]);

export const RUN: Command = {
  name: 'run',
  args: 'FILE',
  summary:
    'Sends one request file to POST /v1/messages as a stream and writes the reply to stdout as it arrives ' +
    '(Ctrl-C cancels); the stop reason, usage, cost and request-id end it on stderr. A file with errors is not ' +
    'sent unless --force; a {{placeholder}} without a --var is never sent.',
  options: [
    {
      name: 'var',
      value: 'NAME=VALUE',
      repeatable: true,
      help: "the value of the request's {{NAME}} placeholder",
    },
    { name: 'force', help: 'send a file with rule errors anyway, the service decides (never one that does not parse)' },
    PRICES,
    formatOption(
      ['text', 'json', 'jsonl'],
      'text: the reply as it streams (default); json: the message object; ' + 'jsonl: each stream event as it comes',
    ),
  ],
  exits: {
    0: 'the reply arrived whole',
    1: 'the service answered with an error, or the stream failed',
    2:
      'a usage error, a file with errors (without --force) or that does not parse, a placeholder without a value, ' +
      'a case or count file, no such file, no key or no address (nothing sent)',
    130: CTRL_C,
  },
};

/** `--var NAME=VALUE`, each once. */
function varsOf(p: Parsed): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const v of all(p, 'var')) {
    const eq = v.indexOf('=');
    const name = v.slice(0, eq).trim();
    if (eq <= 0 || !name) throw new UsageError(`--var takes NAME=VALUE, got "${v}"`);
    if (name in vars) throw new UsageError(`--var ${name} is given twice`);
    vars[name] = v.slice(eq + 1);
  }
  return vars;
}

/**
 * Reads and validates a request file for the endpoint it is sent to, and fills its placeholders. Errors stop it
 * (printed, undefined returned) unless `force` is set and the file parses: then they are printed as such and the
 * service decides. A placeholder with no value, or a value for none, stops it whatever `force` says.
 */
function loadRequest(
  file: string,
  io: CliIo,
  o: { endpoint: Endpoint; force: boolean; vars: Record<string, string> },
): Record<string, unknown> | undefined {
  if (!fs.existsSync(file)) {
    io.stderr.write(`promptwright run: no such file: ${file}\n`);
    return undefined;
  }
  const decoded = decodeUtf8(fs.readFileSync(file));
  if ('invalidAt' in decoded) {
    io.stderr.write(`promptwright run: ${file}: invalid UTF-8 at byte ${decoded.invalidAt}\n`);
    return undefined;
  }
  const v = validateText(decoded.text, formatOf(file), { betas: betasFromEnv(io.env), endpoint: o.endpoint });
  const records = toRecords(decoded.text, v.problems, file);
  const other = records.find(r => r.code === OTHER_TOOL_FILE);
  if (other) {
    io.stderr.write(`promptwright run: ${file}: ${other.message}\n`);
    return undefined;
  }
  const errors = records.filter(r => r.severity === 'error');
  for (const r of errors) io.stderr.write(`${r.file}:${r.line}:${r.column}: ${r.severity} ${r.code}: ${r.message}\n`);
  const unreadable = errors.some(r => UNREADABLE.has(r.code));
  if (errors.length && (!o.force || unreadable)) {
    io.stderr.write(
      unreadable
        ? 'promptwright run: not sent: the file does not read as one request body (--force does not change that)\n'
        : 'promptwright run: not sent (the service would reject it); --force sends it anyway\n',
    );
    return undefined;
  }
  const value = v.parsed.value as Record<string, unknown>;
  const used = placeholderNames(value);
  const unused = Object.keys(o.vars).filter(n => !used.has(n));
  if (unused.length) {
    io.stderr.write(`promptwright run: ${file} has no ${unused.map(n => `{{${n}}}`).join(', ')}: check --var\n`);
    return undefined;
  }
  const { value: filled, missing } = fillPlaceholders(value, o.vars);
  if (missing.length) {
    const names = missing.map(n => `{{${n}}}`).join(', ');
    const how = missing.map(n => `--var ${n}=…`).join(' ');
    io.stderr.write(
      `promptwright run: not sent: ${names} ${missing.length > 1 ? 'have' : 'has'} no value: give ${how}\n`,
    );
    return undefined;
  }
  if (errors.length) io.stderr.write(`promptwright run: sending despite ${count(errors.length, 'error')} (--force)\n`);
  return filled as Record<string, unknown>;
}

export async function runRun(args: string[], io: CliIo, cwd = process.cwd()): Promise<number> {
  let force: boolean;
  let file: string | undefined;
  let prices: PriceTable;
  let vars: Record<string, string>;
  let outputFormat: string;
  try {
    const p = parseArgs(args, RUN);
    if (p.positionals.length !== 1) throw new UsageError(p.positionals.length ? 'one FILE at a time' : 'expected FILE');
    force = p.switches.has('force');
    file = p.positionals[0];
    prices = pricesOption(p, cwd);
    vars = varsOf(p);
    outputFormat = one(p, 'format') ?? 'text';
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr.write(`promptwright run: ${e.message}\n`);
    return EXIT.refused;
  }
  if (!file) return EXIT.refused;
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
  const body = loadRequest(file, io, { endpoint: 'messages', force, vars });
  if (!body) return EXIT.refused;
  const signal = io.signal;
  const out = outputFormat === 'text' ? (s: string) => io.stdout.write(s) : () => undefined;
  let kind = '';
  try {
    const stream = await clientFromEnv(io).streamMessage(body, signal ? { signal } : {});
    for await (const ev of stream) {
      if (outputFormat === 'jsonl') io.stdout.write(`${JSON.stringify(ev)}\n`);
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
    if (outputFormat === 'json') io.stdout.write(`${JSON.stringify(stream.message, null, 2)}\n`);
    summary(stream.message, io, stream.requestId, { model: String(body.model), prices });
    return EXIT.ok;
  } catch (e) {
    if (e instanceof StreamError) {
      // the stream had started: what arrived is on stdout; end its line so stderr starts on its own
      out('\n');
      if (outputFormat === 'json' && e.partial) io.stdout.write(`${JSON.stringify(e.partial, null, 2)}\n`);
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
