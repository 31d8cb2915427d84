// Cache breakpoints: the count_tokens calls the CodeLenses make for a request with 4 markers (tools, system, a
// message, the top-level one) as the editor makes them (core/cache: breakpoints, prefix cuts, the counter), and
// the time to find, cut and estimate the breakpoints of a 10 MB request, against JSON.parse of it.
import { cacheMarkers } from '../src/core/request/breakpoints';
import { PrefixCounter } from '../src/core/cache/counter';
import { breakpointsOf, prefixOf } from '../src/core/cache/report';
import { ratioCase, type Figure } from './bench';

const cc = (ttl?: string) => ({ type: 'ephemeral', ...(ttl ? { ttl } : {}) });
const text = (t: string, marked?: string) => ({
  type: 'text',
  text: t,
  ...(marked ? { cache_control: cc(marked) } : {}),
});

function request(question: string, pad = 0): Record<string, unknown> {
  const turns = Array.from({ length: pad }, (_, i) => ({
    role: i % 2 ? 'assistant' : 'user',
    content: `Turn ${i}: the quick brown fox jumps over the lazy dog, again and again, to fill the file.`,
  }));
  return {
    model: 'model-sonnet-4-6',
    max_tokens: 1024,
    cache_control: cc(),
    tools: [{ name: 'lookup_order', input_schema: { type: 'object' }, cache_control: cc('1h') }],
    system: [text('You answer from the handbook. '.repeat(200), '1h')],
    messages: [...turns, { role: 'user', content: [text('Earlier: the order left on Monday.', '5m'), text(question)] }],
  };
}

export async function cacheBench(): Promise<Figure[]> {
  let calls = 0;
  const counter = new PrefixCounter(
    async body => {
      calls++;
      await new Promise(r => setTimeout(r, 2));
      return JSON.stringify(body).length >> 2;
    },
    { concurrency: 3 },
  );
  const look = async (body: Record<string, unknown>) => {
    const before = calls;
    await counter.countAll(breakpointsOf(body).map(b => b.request));
    return calls - before;
  };
  const first = await look(request('Where is my order?'));
  const again = await look(request('Where is my order?'));
  const edited = await look(request('Where is my order now?'));
  const other = await look({ ...request('Where is it?'), system: [text('Another handbook. '.repeat(300), '1h')] });
  const markers = cacheMarkers(request('x')).length;

  const big = JSON.stringify(request('Where is my order?', 100_000));
  const parsed = JSON.parse(big) as Record<string, unknown>;
  const cut = ratioCase(
    {
      name: 'cache breakpoints of a 10 MB request: find, cut and estimate vs JSON.parse',
      floor: { name: 'JSON.parse', run: () => JSON.parse(big) as unknown },
      ours: { name: 'breakpoints', run: () => breakpointsOf(parsed).map(b => prefixOf(b, undefined)) },
      // each cut is a copy of the request up to its breakpoint: a few parses' worth
      target: 3,
    },
    1000,
  );
  return [
    {
      name: `cache lenses: count_tokens calls, ${markers} markers, first look`,
      value: String(first),
      target: `≤ ${markers + 1}`,
      ok: first <= markers + 1,
      extra:
        `one per marker (${markers}), and once per model the minimal request that the tools and system prefixes are ` +
        `measured against; a second file on the same model: ${other} (≤ ${markers})`,
    },
    {
      name: 'cache lenses: calls on a second look at the unchanged file',
      value: String(again),
      target: '0',
      ok: again === 0,
    },
    {
      name: 'cache lenses: calls after an edit past the last marker',
      value: String(edited),
      target: '1',
      ok: edited === 1,
      extra: 'only the top-level marker’s prefix (the whole request) changed',
    },
    cut,
  ];
}
