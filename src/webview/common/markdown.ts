// A small Markdown renderer that builds DOM nodes with textContent only: model output can never become
// markup, script or event handlers (inert by construction, no HTML string is ever parsed). Links become
// buttons that ask the extension to open http(s) URLs; nothing else is followed.

export function renderMarkdown(doc: Document, text: string, onLink: (url: string) => void): DocumentFragment {
  const frag = doc.createDocumentFragment();
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let i = 0;
  let para: string[] = [];
  const flushPara = () => {
    if (!para.length) return;
    const p = doc.createElement('p');
    inline(doc, p, para.join(' '), onLink);
    frag.appendChild(p);
    para = [];
  };
  while (i < lines.length) {
    const line = lines[i]!;
    const fence = /^\s*(```|~~~)(.*)$/.exec(line);
    if (fence) {
      flushPara();
      const body: string[] = [];
      i++;
      while (i < lines.length && !lines[i]!.trim().startsWith(fence[1]!)) body.push(lines[i++]!);
      i++;
      const pre = doc.createElement('pre');
      const code = doc.createElement('code');
      if (fence[2]!.trim()) code.dataset.lang = fence[2]!.trim().slice(0, 30);
      code.textContent = body.join('\n');
      pre.appendChild(code);
      frag.appendChild(pre);
      continue;
    }
    const h = /^(#{1,6})\s+(.*)$/.exec(line);
    if (h) {
      flushPara();
      const el = doc.createElement(`h${Math.min(6, h[1]!.length + 2)}`);
      inline(doc, el, h[2]!, onLink);
      frag.appendChild(el);
      i++;
      continue;
    }
    if (/^\s*([-*+]|\d+[.)])\s+/.test(line)) {
      flushPara();
      const ordered = /^\s*\d/.test(line);
      const list = doc.createElement(ordered ? 'ol' : 'ul');
      while (i < lines.length && /^\s*([-*+]|\d+[.)])\s+/.test(lines[i]!)) {
        const li = doc.createElement('li');
        inline(doc, li, lines[i]!.replace(/^\s*([-*+]|\d+[.)])\s+/, ''), onLink);
        list.appendChild(li);
        i++;
      }
      frag.appendChild(list);
      continue;
    }
    if (/^\s*>\s?/.test(line)) {
      flushPara();
      const q = doc.createElement('blockquote');
      const body: string[] = [];
      while (i < lines.length && /^\s*>\s?/.test(lines[i]!)) body.push(lines[i++]!.replace(/^\s*>\s?/, ''));
      inline(doc, q, body.join(' '), onLink);
      frag.appendChild(q);
      continue;
    }
    if (!line.trim()) {
      flushPara();
      i++;
      continue;
    }
    para.push(line);
    i++;
  }
  flushPara();
  return frag;
}

/** Inline spans: `code`, **bold**, *italic*, [text](url). Everything else is text. */
function inline(doc: Document, parent: HTMLElement, text: string, onLink: (url: string) => void): void {
  const re = /`([^`]+)`|\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > last) parent.appendChild(doc.createTextNode(text.slice(last, m.index)));
    if (m[1] !== undefined) {
      const c = doc.createElement('code');
      c.textContent = m[1];
      parent.appendChild(c);
    } else if (m[2] !== undefined) {
      const b = doc.createElement('strong');
      b.textContent = m[2];
      parent.appendChild(b);
    } else if (m[3] !== undefined) {
      const e = doc.createElement('em');
      e.textContent = m[3];
      parent.appendChild(e);
    } else if (m[4] !== undefined) parent.appendChild(link(doc, m[4], m[5]!, onLink));
    last = m.index + m[0].length;
  }
  if (last < text.length) parent.appendChild(doc.createTextNode(text.slice(last)));
}

/** A link: only http(s) URLs are clickable (the extension opens them); others show as plain text. */
export function link(doc: Document, label: string, url: string, onLink: (url: string) => void): HTMLElement {
  if (!/^https?:\/\//i.test(url)) {
    const s = doc.createElement('span');
    s.textContent = `${label} (${url})`;
    s.className = 'unsafe-link';
    return s;
  }
  const a = doc.createElement('a');
  a.textContent = label;
  a.title = url;
  a.href = '#';
  a.addEventListener('click', e => {
    e.preventDefault();
    onLink(url);
  });
  return a;
}
