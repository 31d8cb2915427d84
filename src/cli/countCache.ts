// `promptwright count FILE... --cache`: each file's cache breakpoints, in the order the service processes them,
// with the prefix each caches (counted with count_tokens, as the editor's CodeLenses count them), its ttl, and
// whether it reaches the model's minimum cacheable length (under it nothing is cached, and the service says
// nothing). `--format json` gives [{file, input_tokens, breakpoints: [{path, ttl, prefix_tokens, min_tokens,
// cacheable, automatic}]}].
import type { ApiClient } from '../core/api/client';
import { PrefixCounter } from '../core/cache/counter';
import { breakpointsOf, shownAt } from '../core/cache/report';
import { pickCountFields } from '../core/api/countFields';
import { pointer } from '../core/request/types';
import { count, thousands } from '../core/text';
import type { Counted } from './counting';
import type { CliIo } from './io';
import { printJsonArray, table } from './output';

interface BreakpointRow {
  path: string;
  ttl: '5m' | '1h';
  prefix_tokens: number | null;
  min_tokens: number | null;
  cacheable: boolean | null;
  /** the top-level cache_control: `path` is the block it applies to */
  automatic: boolean;
}

/** Prints each counted body's breakpoints; `tokens[i]` is the whole count of `counted[i]`, made already. */
export async function printBreakpoints(
  io: CliIo,
  outputFormat: 'text' | 'json',
  counted: readonly Counted[],
  tokens: readonly { input_tokens: number }[],
  client: ApiClient,
): Promise<void> {
  const counter = new PrefixCounter(
    async (body, signal) => (await client.countTokens(body, signal ? { signal } : {})).input_tokens,
  );
  const out = [];
  for (let i = 0; i < tokens.length; i++) {
    const c = counted[i]!;
    const input = tokens[i]!.input_tokens;
    counter.seed(pickCountFields(c.body), input);
    const bps = breakpointsOf(c.body);
    const prefixes = await counter.countAll(
      bps.map(b => b.request),
      io.signal,
    );
    const breakpoints: BreakpointRow[] = bps.map((b, k) => {
      const p = prefixes[k]!;
      const prefix = 'tokens' in p ? p.tokens : null;
      if ('error' in p) {
        const what = `${c.file}${c.case !== undefined ? ` (case "${c.case}")` : ''}`;
        io.stderr.write(`${what}: cache breakpoint ${b.index} not counted: ${p.error.message}\n`);
      }
      const min = b.minimum?.tokens ?? null;
      return {
        path: pointer(shownAt(b) ?? b.marker.holder),
        ttl: b.marker.ttl,
        prefix_tokens: prefix,
        min_tokens: min,
        cacheable: prefix === null || min === null ? null : prefix >= min,
        automatic: b.marker.automatic,
      };
    });
    out.push({ file: c.file, ...(c.case !== undefined ? { case: c.case } : {}), input_tokens: input, breakpoints });
  }
  if (outputFormat === 'json') return printJsonArray(io, out);
  for (const f of out) {
    const what = `${f.file}${f.case !== undefined ? ` (case "${f.case}")` : ''}`;
    io.stdout.write(
      `${what}: ${count(f.input_tokens, 'input token')}, ${count(f.breakpoints.length, 'cache breakpoint')}\n`,
    );
    if (!f.breakpoints.length) continue;
    const rows = f.breakpoints.map((b, k) => ({ ...b, n: k + 1 }));
    const num = (v: number | null) => (v === null ? '-' : thousands(v));
    const lines = table(rows, [
      ['#', r => String(r.n)],
      ['PATH', r => r.path + (r.automatic ? ' (automatic)' : '')],
      ['TTL', r => r.ttl],
      ['PREFIX_TOKENS', r => num(r.prefix_tokens)],
      ['MIN_TOKENS', r => num(r.min_tokens)],
      [
        'CACHEABLE',
        r =>
          r.cacheable === null ? 'unknown' : r.cacheable ? 'yes' : 'no: nothing is cached, and no error is returned',
      ],
    ]);
    io.stdout.write(
      lines
        .split('\n')
        .map(l => (l ? `  ${l}` : l))
        .join('\n'),
    );
  }
}
