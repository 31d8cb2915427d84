// The large inputs the benchmarks (bench/main.ts) and the validator's profile (bench/profile.ts) are made of.

/** A realistic request of about `bytes` bytes: alternating turns with text, tool use and tool results. */
export function bigRequest(bytes: number): object {
  const messages: object[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const m =
      i % 4 === 1
        ? {
            role: 'assistant',
            content: [
              { type: 'text', text: `Let me look that up (${i}).` },
              { type: 'tool_use', id: `toolu_${i}`, name: 'search', input: { q: `query ${i}` } },
            ],
          }
        : i % 4 === 2
          ? {
              role: 'user',
              content: [
                {
                  type: 'tool_result',
                  tool_use_id: `toolu_${i - 1}`,
                  content: [
                    { type: 'text', text: `Result ${i}: lorem ipsum dolor sit amet, consectetur adipiscing elit.` },
                  ],
                },
              ],
            }
          : {
              role: i % 2 ? 'assistant' : 'user',
              content: `Turn ${i}: the quick brown fox jumps over the lazy dog, again and again, to fill the file.`,
            };
    messages.push(m);
    size += JSON.stringify(m).length + 2;
  }
  if (messages.length % 2 === 0) messages.push({ role: 'user', content: 'last' });
  return {
    model: 'model-opus-4-7',
    max_tokens: 4096,
    system: 'You are terse.',
    tools: [{ name: 'search', input_schema: { type: 'object', properties: { q: { type: 'string' } } } }],
    messages,
  };
}

/**
 * A PDF of about `bytes` bytes, as a writer makes one: pages with a content stream of filler text each, a page
 * tree, and a cross-reference table at the end (through which the validator finds the page count).
 */
export function bigPdf(bytes: number, pages = 60): Buffer {
  const filler = 'BT /F1 12 Tf 72 712 Td (The quick brown fox jumps over the lazy dog.) Tj ET\n';
  const stream = filler.repeat(Math.ceil(bytes / pages / filler.length));
  const kids = Array.from({ length: pages }, (_, i) => `${2 * i + 3} 0 R`).join(' ');
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`];
  for (let i = 0; i < pages; i++) {
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${2 * i + 4} 0 R >>`);
    objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}endstream`);
  }
  const parts = ['%PDF-1.7\n'];
  let size = parts[0]!.length;
  const offsets = objects.map((o, i) => {
    const at = size;
    const text = `${i + 1} 0 obj\n${o}\nendobj\n`;
    parts.push(text);
    size += text.length;
    return at;
  });
  parts.push(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`);
  for (const o of offsets) parts.push(`${String(o).padStart(10, '0')} 00000 n \n`);
  parts.push(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${size}\n%%EOF\n`);
  return Buffer.from(parts.join(''), 'latin1');
}
