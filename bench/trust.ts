// The two trusts on the grown corpora (accepted bodies free of errors, refused bodies flagged at their place), and
// what the media and strict-schema checks cost on a 10 MB body, against JSON.parse of it.
import { validateText } from '../src/core/request/validate';
import { trustFigures } from '../test/unit/request/corpora';
import { ratioCase, type Figure } from './bench';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/** About `bytes` of images: 90 PNGs padded to the size (their headers are read, never the whole data). */
function mediaBody(bytes: number): string {
  const head = Buffer.from(PNG, 'base64');
  const each = Math.floor((bytes * 0.75) / 90);
  const png = Buffer.alloc(each);
  head.copy(png);
  const data = png.toString('base64');
  const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data } };
  const content = [...Array.from({ length: 90 }, () => image), { type: 'text', text: 'Which one shows the error?' }];
  return JSON.stringify({ model: 'model-sonnet-4-5', max_tokens: 1024, messages: [{ role: 'user', content }] });
}

/** About `bytes` of strict schemas: 20 strict tools and an output schema, every parameter required. */
function schemaBody(bytes: number): string {
  const per = Math.floor(bytes / 21 / 120);
  const schema = (k: number) => ({
    type: 'object',
    properties: Object.fromEntries(
      Array.from({ length: per }, (_, i) => [
        `field_${k}_${i}`,
        {
          type: 'object',
          properties: { v: { type: 'string', description: 'a value' } },
          required: ['v'],
          additionalProperties: false,
        },
      ]),
    ),
    required: Array.from({ length: per }, (_, i) => `field_${k}_${i}`),
    additionalProperties: false,
  });
  const tools = Array.from({ length: 20 }, (_, k) => ({ name: `tool_${k}`, strict: true, input_schema: schema(k) }));
  return JSON.stringify({
    model: 'model-sonnet-4-5',
    max_tokens: 1024,
    tools,
    output_config: { format: { type: 'json_schema', schema: schema(20) } },
    messages: [{ role: 'user', content: 'Fill the form.' }],
  });
}

export function trustBench(figs: Figure[]): void {
  const t = trustFigures();
  const failures = [...t.accepted.failures, ...t.rejected.failures];
  figs.push({
    name: 'trust: accepted bodies free of errors | rejected bodies flagged at their place',
    value: `${t.accepted.clean}/${t.accepted.total} | ${t.rejected.placed}/${t.rejected.total}`,
    target: 'all | all (documented warnings aside)',
    ok: failures.length === 0,
    extra:
      `rejected: ${t.rejected.placed} with their error at the place the service names, ${t.rejected.warned} with a ` +
      `warning there by design (RULES.md)${failures.length ? `; failures: ${failures.join('; ')}` : ''}`,
  });
  for (const [what, text] of [
    ['90 base64 images (media checks)', mediaBody(10_000_000)],
    ['21 strict schemas (strict-schema checks)', schemaBody(10_000_000)],
  ] as const) {
    const errors = validateText(text, 'json').problems.filter(p => p.severity === 'error');
    if (errors.length) throw new Error(`bench body has errors: ${JSON.stringify(errors.slice(0, 3))}`);
    figs.push(
      ratioCase({
        name: `JSON ${(text.length / 1e6).toFixed(0)} MB, ${what}: parse+validate+ranges vs JSON.parse`,
        target: 3,
        floor: { name: 'JSON.parse', run: (): unknown => JSON.parse(text) },
        ours: { name: 'validateText', run: () => validateText(text, 'json') },
      }),
    );
  }
}
