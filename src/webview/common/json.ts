// JSON shown with its parts coloured by the theme's own token colours: keys, strings, numbers, literals.
// Every part is a text node in a span: the JSON (a model's tool input) is never parsed as HTML.

const TOKEN = /("(?:[^"\\]|\\.)*")(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b/g;

/** The pretty-printed JSON of `value` as highlighted nodes. */
export function highlightJson(doc: Document, value: unknown): DocumentFragment {
  const text = JSON.stringify(value ?? {}, null, 2) ?? 'null';
  const out = doc.createDocumentFragment();
  const span = (cls: string, t: string) => {
    const s = doc.createElement('span');
    s.className = cls;
    s.textContent = t;
    out.appendChild(s);
  };
  let last = 0;
  for (const m of text.matchAll(TOKEN)) {
    if (m.index > last) out.appendChild(doc.createTextNode(text.slice(last, m.index)));
    if (m[1] !== undefined) {
      span(m[2] ? 'json-key' : 'json-string', m[1]);
      if (m[2]) out.appendChild(doc.createTextNode(m[2]));
    } else if (m[3] !== undefined) span('json-number', m[3]);
    else span('json-literal', m[4]!);
    last = m.index + m[0].length;
  }
  if (last < text.length) out.appendChild(doc.createTextNode(text.slice(last)));
  return out;
}
