// Media inside a request, read from its base64 text without decoding it whole: whether the text is base64,
// how many bytes it holds (from its length), the format its first bytes show, an image's width and height
// from its header, and a PDF's page count from its cross-reference table. A 10 MB document costs one pass
// over its text and a few kilobytes of decoding, so checking it stays close to the cost of parsing the file.

export type MediaType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | 'application/pdf';

/** The value of each base64 character, -1 for characters outside the alphabet. */
const VALUE = new Int8Array(128).fill(-1);
'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.split('').forEach((c, i) => {
  VALUE[c.charCodeAt(0)] = i;
});
const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;

export type Base64Scan =
  | {
      ok: true;
      /** the number of bytes the text decodes to */
      bytes: number;
      /** the text holds whitespace (line breaks): its characters are not at their byte positions */
      spaced: boolean;
    }
  /** `at` is the offset of the first character that cannot be there, or the length for a bad length */
  | { ok: false; at: number; reason: string };

/**
 * Checks base64 text in one pass. Whitespace is let through: whether the service skips it is not known,
 * so only what no decoder can read is refused: a character outside the alphabet, `=` before the end,
 * more than two `=`, or a length that leaves one character over (unpadded text is let through too).
 */
export function scanBase64(s: string): Base64Scan {
  // the common case, padded base64 without whitespace, in native code: decoded and encoded again, it gives the
  // same text (10 MB in a third of the time of the loop below, which reads everything else)
  if (typeof Buffer !== 'undefined' && s.length % 4 === 0) {
    const decoded = Buffer.from(s, 'base64');
    if (decoded.toString('base64') === s) return { ok: true, bytes: decoded.length, spaced: false };
  }
  let chars = 0;
  let spaced = false;
  let i = 0;
  const n = s.length;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 128 && VALUE[c]! >= 0) chars++;
    else if (c === 61) break;
    else if (isSpace(c)) spaced = true;
    else return { ok: false, at: i, reason: `the character ${JSON.stringify(s[i])} is not base64` };
  }
  let pad = 0;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 61) pad++;
    else if (isSpace(c)) spaced = true;
    else return { ok: false, at: i, reason: 'text follows the "=" padding' };
  }
  if (pad > 2) return { ok: false, at: n, reason: 'more than two "=" of padding' };
  if (chars % 4 === 1 || (pad > 0 && (chars + pad) % 4 !== 0))
    return { ok: false, at: n, reason: 'its length is not that of base64 text' };
  return { ok: true, bytes: Math.floor((chars * 3) / 4), spaced };
}

/**
 * Bytes at any offset of base64 text (without whitespace), decoding only the characters that hold them.
 * Reads past the end are cut short.
 */
export class Base64Reader {
  readonly length: number;
  constructor(private readonly text: string) {
    let end = text.length;
    while (end > 0 && text.charCodeAt(end - 1) === 61) end--;
    this.length = Math.floor((end * 3) / 4);
  }

  read(offset: number, count: number): Uint8Array {
    const from = Math.max(0, offset);
    const to = Math.min(this.length, offset + Math.max(0, count));
    if (to <= from) return new Uint8Array(0);
    const group = Math.floor(from / 3);
    const out = new Uint8Array((Math.ceil(to / 3) - group) * 3);
    let o = 0;
    for (let c = group * 4; c < Math.ceil(to / 3) * 4; c += 4) {
      const v = (k: number) => {
        const code = this.text.charCodeAt(c + k);
        return code < 128 ? Math.max(0, VALUE[code]!) : 0;
      };
      const w = (v(0) << 18) | (v(1) << 12) | (v(2) << 6) | v(3);
      out[o++] = w >> 16;
      out[o++] = (w >> 8) & 0xff;
      out[o++] = w & 0xff;
    }
    return out.subarray(from - group * 3, to - group * 3);
  }

  /** Bytes as Latin-1 text (PDF syntax is ASCII). */
  text8(offset: number, count: number): string {
    const b = this.read(offset, count);
    let s = '';
    for (let i = 0; i < b.length; i += 8192) s += String.fromCharCode(...b.subarray(i, i + 8192));
    return s;
  }
}

/** A reader over base64 text as the request holds it (whitespace, if any, taken out first). */
export function readerOf(data: string, spaced: boolean): Base64Reader {
  return new Base64Reader(spaced ? data.replace(/\s+/g, '') : data);
}

const startsWith = (b: Uint8Array, at: number, ascii: string) => {
  for (let i = 0; i < ascii.length; i++) if (b[at + i] !== ascii.charCodeAt(i)) return false;
  return true;
};

/** The format the first bytes show (a PDF's header may come after up to 1 KB of other bytes). */
export function sniff(r: Base64Reader): MediaType | undefined {
  const b = r.read(0, 16);
  if (b[0] === 0x89 && startsWith(b, 1, 'PNG\r\n\x1a\n')) return 'image/png';
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (startsWith(b, 0, 'GIF87a') || startsWith(b, 0, 'GIF89a')) return 'image/gif';
  if (startsWith(b, 0, 'RIFF') && startsWith(b, 8, 'WEBP')) return 'image/webp';
  if (r.text8(0, 1024).includes('%PDF-')) return 'application/pdf';
  return undefined;
}

export interface Size {
  width: number;
  height: number;
}

const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u24le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16);
const u32be = (b: Uint8Array, i: number) => ((b[i]! << 24) >>> 0) + (b[i + 1]! << 16) + (b[i + 2]! << 8) + b[i + 3]!;

/** An image's width and height from its header, or undefined when the header cannot be read. */
export function imageSize(r: Base64Reader, type: MediaType): Size | undefined {
  if (type === 'image/png') {
    const b = r.read(0, 24);
    return b.length === 24 && startsWith(b, 12, 'IHDR') ? { width: u32be(b, 16), height: u32be(b, 20) } : undefined;
  }
  if (type === 'image/gif') {
    const b = r.read(0, 10);
    return b.length === 10 ? { width: u16le(b, 6), height: u16le(b, 8) } : undefined;
  }
  if (type === 'image/webp') return webpSize(r.read(0, 30));
  if (type === 'image/jpeg') return jpegSize(r);
  return undefined;
}

/** The three kinds of WebP: lossy (VP8), lossless (VP8L) and extended (VP8X, the canvas size). */
function webpSize(b: Uint8Array): Size | undefined {
  if (b.length >= 30 && startsWith(b, 12, 'VP8 ') && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a)
    return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  if (b.length >= 25 && startsWith(b, 12, 'VP8L') && b[20] === 0x2f) {
    const bits = (b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24)) >>> 0;
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (b.length >= 30 && startsWith(b, 12, 'VP8X')) return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  return undefined;
}

/** The segments whose header gives the frame size: SOF0-3, 5-7, 9-11, 13-15 (not DHT, JPG or DAC). */
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/** Walks a JPEG's segments from marker to marker (their lengths say where the next one is) to its frame header. */
function jpegSize(r: Base64Reader): Size | undefined {
  let at = 2;
  for (let segments = 0; segments < 1000 && at + 4 <= r.length; segments++) {
    const b = r.read(at, 9);
    if (b[0] !== 0xff) return undefined;
    const marker = b[1]!;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      at += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return undefined; // end of image, or scan data before any frame
    if (SOF.has(marker)) return b.length === 9 ? { width: u16be(b, 7), height: u16be(b, 5) } : undefined;
    at += 2 + u16be(b, 2);
  }
  return undefined;
}

/** How far back from the end `startxref` is looked for; writers put it in the last few dozen bytes. */
const TAIL = 1024;
/** An object's dictionary is read up to this many bytes (a page tree's root lists its kids). */
const OBJECT_WINDOW = 64 * 1024;
/** Below this size a PDF whose cross-reference table cannot be read is decoded whole and searched. */
const SCAN_WHOLE = 2 * 1024 * 1024;

/**
 * A PDF's page count: the `/Count` of the page tree's root, found through the trailer's `/Root`, or, for a
 * small file whose cross-reference table cannot be read, in its text. Undefined when neither works, which is
 * the case of a large file with compressed object streams.
 */
export function pdfPageCount(r: Base64Reader): number | undefined {
  return pagesByXref(r) ?? (r.length <= SCAN_WHOLE ? pagesByScan(r.text8(0, r.length)) : undefined);
}

interface XrefSection {
  subsections: { first: number; count: number; at: number }[];
  trailer: string;
}

function pagesByXref(r: Base64Reader): number | undefined {
  const tail = r.text8(r.length - TAIL, TAIL);
  const m = /startxref\s+(\d+)\s+%%EOF[\s\S]*$/.exec(tail.slice(tail.lastIndexOf('startxref')));
  if (!m) return undefined;
  const sections: XrefSection[] = [];
  for (let at: number | undefined = Number(m[1]); at !== undefined && sections.length < 32;) {
    const s = xrefSection(r, at);
    if (!s) return undefined;
    sections.push(s);
    const prev = /\/Prev\s+(\d+)/.exec(s.trailer);
    at = prev ? Number(prev[1]) : undefined;
  }
  const offsetOf = (obj: number): number | undefined => {
    for (const s of sections) {
      const sub = s.subsections.find(x => obj >= x.first && obj < x.first + x.count);
      if (!sub) continue;
      const entry = /^(\d{10}) (\d{5}) ([nf])/.exec(r.text8(sub.at + (obj - sub.first) * 20, 20));
      return entry && entry[3] === 'n' ? Number(entry[1]) : undefined;
    }
    return undefined;
  };
  const dictOf = (obj: number): string | undefined => {
    const at = offsetOf(obj);
    if (at === undefined) return undefined;
    // most dictionaries are short: a small window first, the whole window only when the end is not in it
    for (const window of [OBJECT_WINDOW / 16, OBJECT_WINDOW]) {
      const text = r.text8(at, window);
      if (!new RegExp(`^\\s*${obj}\\s+\\d+\\s+obj\\b`).test(text)) return undefined;
      const end = text.search(/\bendobj\b|\bstream\b/);
      if (end >= 0) return text.slice(0, end);
    }
    return undefined;
  };
  const root = /\/Root\s+(\d+)\s+\d+\s+R/.exec(sections[0]!.trailer);
  const catalog = root ? dictOf(Number(root[1])) : undefined;
  const pagesRef = catalog ? /\/Pages\s+(\d+)\s+\d+\s+R/.exec(catalog) : undefined;
  const pages = pagesRef ? dictOf(Number(pagesRef[1])) : undefined;
  const count = pages && /\/Type\s*\/Pages\b/.test(pages) ? /\/Count\s+(\d+)/.exec(pages) : undefined;
  return count ? Number(count[1]) : undefined;
}

/** A classic cross-reference table at `at`: its subsections (20-byte entries) and its trailer dictionary. */
function xrefSection(r: Base64Reader, at: number): XrefSection | undefined {
  const head = r.text8(at, 64);
  const start = /^\s*xref\s*/.exec(head);
  if (!start) return undefined;
  let pos = at + start[0].length;
  const subsections: XrefSection['subsections'] = [];
  for (;;) {
    const line = r.text8(pos, 64);
    const sub = /^(\d+) (\d+)\s*?\r?\n/.exec(line) ?? /^(\d+) (\d+)[ \r]?[\r\n]/.exec(line);
    if (!sub) break;
    const count = Number(sub[2]);
    subsections.push({ first: Number(sub[1]), count, at: pos + sub[0].length });
    pos += sub[0].length + count * 20;
  }
  const trailer = r.text8(pos, 4096);
  if (!subsections.length || !/^\s*trailer\b/.test(trailer)) return undefined;
  return { subsections, trailer: trailer.slice(0, trailer.indexOf('>>') + 2) };
}

/** The page count of the last page tree root in the text (an incremental update writes a newer root later). */
function pagesByScan(pdf: string): number | undefined {
  let count: number | undefined;
  const roots = /\/Type\s*\/Pages\b/g;
  for (let m = roots.exec(pdf); m; m = roots.exec(pdf)) {
    const from = pdf.lastIndexOf(' obj', m.index);
    const to = pdf.indexOf('endobj', m.index);
    const object = pdf.slice(from < 0 ? 0 : from, to < 0 ? pdf.length : to);
    const n = /\/Count\s+(\d+)/.exec(object);
    if (n && !/\/Parent\b/.test(object)) count = Number(n[1]);
  }
  return count;
}
