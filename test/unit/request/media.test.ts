// Reading media from base64 text without decoding it whole: the scan, random reads, the format, image sizes
// from their headers, and a PDF's page count from its cross-reference table.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import {
  Base64Reader,
  imageSize,
  pdfPageCount,
  readerOf,
  scanBase64,
  sniff,
  type MediaType,
} from '../../../src/core/request/media';

const b64 = (bytes: number[] | Buffer | string) =>
  (typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : Buffer.from(bytes)).toString('base64');
const reader = (bytes: number[] | Buffer | string) => new Base64Reader(b64(bytes));
const u32 = (n: number) => [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const u16le = (n: number) => [n & 0xff, n >> 8];

/** A PNG's signature and IHDR chunk (CRC not checked), as a header-only file. */
// prettier-ignore
const png = (w: number, h: number) => [
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, ...u32(w), ...u32(h),
  8, 6, 0, 0, 0, 0, 0, 0, 0,
];
const gif = (w: number, h: number) => [...Buffer.from('GIF89a'), ...u16le(w), ...u16le(h), 0, 0, 0];
/** SOI, an APP0 segment of `app` bytes, a fill byte, a DQT, the frame header `sof` (SOF0 or SOF2), then SOS. */
// prettier-ignore
const jpeg = (w: number, h: number, app = 16, sof = 0xc0) => [
  0xff, 0xd8, 0xff, 0xe0, (app + 2) >> 8, (app + 2) & 0xff, ...new Array<number>(app).fill(0x4a),
  0xff, 0xff, 0xdb, 0, 4, 0, 0,
  0xff, sof, 0, 11, 8, h >> 8, h & 0xff, w >> 8, w & 0xff, 1, 1, 0x11, 0,
  0xff, 0xda, 0, 2,
];
// prettier-ignore
const riff = (chunk: string, payload: number[]) => [
  ...Buffer.from('RIFF'), 0, 0, 0, 0, ...Buffer.from('WEBP'), ...Buffer.from(chunk), ...u32(payload.length).reverse(),
  ...payload, 0, 0,
];
const vp8 = (w: number, h: number) => riff('VP8 ', [0, 0, 0, 0x9d, 0x01, 0x2a, ...u16le(w), ...u16le(h)]);
const vp8l = (w: number, h: number) => {
  const bits = (w - 1) | ((h - 1) << 14);
  return riff('VP8L', [0x2f, bits & 0xff, (bits >>> 8) & 0xff, (bits >>> 16) & 0xff, (bits >>> 24) & 0xff]);
};
const u24le = (n: number) => [n & 0xff, (n >> 8) & 0xff, n >> 16];
const vp8x = (w: number, h: number) => riff('VP8X', [0, 0, 0, 0, ...u24le(w - 1), ...u24le(h - 1)]);

describe('base64 scan: one pass, no decoding', () => {
  it('valid text: the decoded size from the length, padded or not', () => {
    for (const n of [0, 1, 2, 3, 4, 5, 1000, 1001, 1002]) {
      const text = Buffer.alloc(n, 7).toString('base64');
      assert.deepEqual(scanBase64(text), { ok: true, bytes: n, spaced: false }, `${n} bytes`);
      assert.deepEqual(scanBase64(text.replace(/=+$/, '')), { ok: true, bytes: n, spaced: false }, `${n}, unpadded`);
    }
  });
  it('text a decoder reads but would not write (stray bits after the last byte) is valid too', () => {
    // "QUJDRB==" decodes to the bytes of "QUJDRA==": not the canonical text, so read by the character loop
    assert.deepEqual(scanBase64('QUJDRB=='), { ok: true, bytes: 4, spaced: false });
    assert.deepEqual(scanBase64('QUJDRA=='), { ok: true, bytes: 4, spaced: false });
  });
  it('line breaks are let through, and said', () => {
    const text = Buffer.alloc(100, 1).toString('base64');
    assert.deepEqual(scanBase64(`${text.slice(0, 76)}\r\n${text.slice(76)}\n`), { ok: true, bytes: 100, spaced: true });
  });
  it('what no decoder reads: a character outside the alphabet, text after the padding, a bad length', () => {
    // spaces pass (as line breaks do); the "!" does not
    assert.deepEqual(scanBase64('not base64 data!'), { ok: false, at: 15, reason: 'the character "!" is not base64' });
    assert.equal((scanBase64('data:image/png;base64,iVBO') as { at: number }).at, 4);
    assert.equal(scanBase64('QUJD=QUJD').ok, false);
    assert.equal(scanBase64('QUJDRA===').ok, false);
    assert.equal(scanBase64('QUJDR').ok, false); // 4k+1 characters
    assert.equal(scanBase64('QUJDRA=').ok, false); // padded to a wrong length
    assert.equal(scanBase64('QUJD-_').ok, false); // the URL-safe alphabet
  });
});

describe('Base64Reader: bytes at any offset, decoding only what is read', () => {
  const bytes = Buffer.from(Array.from({ length: 301 }, (_, i) => (i * 37) % 256));
  const r = reader(bytes);
  it('every slice equals the same slice of the whole decode', () => {
    assert.equal(r.length, 301);
    for (const [at, n] of [
      [0, 1],
      [1, 5],
      [2, 7],
      [100, 33],
      [298, 3],
      [299, 10],
      [301, 4],
      [-5, 3],
    ] as const)
      assert.deepEqual(Buffer.from(r.read(at, n)), bytes.subarray(Math.max(0, at), Math.max(0, at + n)), `${at}+${n}`);
  });
  it('text with line breaks is read once they are taken out', () => {
    const text = bytes.toString('base64').replace(/(.{76})/g, '$1\n');
    assert.deepEqual(Buffer.from(readerOf(text, true).read(200, 20)), bytes.subarray(200, 220));
  });
});

describe('media formats and image sizes from the header bytes', () => {
  const cases: [string, number[], MediaType, number, number][] = [
    ['PNG', png(9000, 10), 'image/png', 9000, 10],
    ['GIF', gif(640, 480), 'image/gif', 640, 480],
    ['JPEG (baseline, after APP0, a fill byte and a DQT)', jpeg(2001, 1500), 'image/jpeg', 2001, 1500],
    ['JPEG (progressive, after a 60 KB APP1)', jpeg(300, 8001, 60_000, 0xc2), 'image/jpeg', 300, 8001],
    ['WebP lossy (VP8)', vp8(1024, 768), 'image/webp', 1024, 768],
    ['WebP lossless (VP8L)', vp8l(16383, 2), 'image/webp', 16383, 2],
    ['WebP extended (VP8X)', vp8x(12000, 3), 'image/webp', 12000, 3],
  ];
  for (const [name, bytes, type, width, height] of cases) {
    it(`${name}: ${width} × ${height}`, () => {
      const r = reader(bytes);
      assert.equal(sniff(r), type);
      assert.deepEqual(imageSize(r, type), { width, height });
    });
  }
  it('the images and PDFs of the accepted corpus: their declared format, a size, a page count', () => {
    let images = 0;
    let pdfs = 0;
    for (const f of fs
      .readdirSync('test/fixtures/accepted')
      .filter(x => x.endsWith('.json') && x !== 'manifest.json')) {
      const sources: { media_type: string; data: string }[] = [];
      JSON.parse(fs.readFileSync(`test/fixtures/accepted/${f}`, 'utf8'), (k, v: unknown) => {
        const o = v as { type?: unknown; media_type?: unknown; data?: unknown };
        if (o && o.type === 'base64' && typeof o.media_type === 'string' && typeof o.data === 'string')
          sources.push(o as { media_type: string; data: string });
        return v;
      });
      for (const src of sources) {
        const r = new Base64Reader(src.data);
        assert.equal(sniff(r), src.media_type, f);
        if (src.media_type === 'application/pdf') {
          pdfs++;
          assert.equal(pdfPageCount(r), 1, f);
        } else {
          images++;
          const size = imageSize(r, src.media_type as MediaType);
          assert.ok(size && size.width >= 1 && size.height >= 1, f);
        }
      }
    }
    assert.ok(images >= 4 && pdfs >= 4, `${images} images, ${pdfs} PDFs`);
  });
  it('a PDF (its header may follow other bytes), and data of no known format', () => {
    assert.equal(sniff(reader('%PDF-1.7\n')), 'application/pdf');
    assert.equal(sniff(reader(`${'\0'.repeat(500)}%PDF-1.4\n`)), 'application/pdf');
    assert.equal(sniff(reader('Hello, world!')), undefined);
    assert.equal(sniff(reader([0x89, 0x50])), undefined);
  });
  it('a header cut short, or a JPEG whose scan comes before any frame header: no size', () => {
    assert.equal(imageSize(reader(png(5, 5).slice(0, 20)), 'image/png'), undefined);
    assert.equal(imageSize(reader([0xff, 0xd8, 0xff, 0xda, 0, 2, 0xff, 0xd9]), 'image/jpeg'), undefined);
    assert.equal(imageSize(reader(riff('VP8 ', [0, 0, 0, 1, 2, 3, 0, 0, 0, 0])), 'image/webp'), undefined);
  });
});

/** A PDF of `pages` empty pages with a classic cross-reference table; `update` appends a revision. */
function pdf(pages: number, update?: number): string {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${Array.from({ length: pages }, (_, i) => `${i + 3} 0 R`).join(' ')}] /Count ${pages} >>`,
    ...Array.from({ length: pages }, () => '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 72 72] >>'),
  ];
  let text = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(text.length);
    text += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = (first: number, offs: number[], trailer: string) => {
    const at = text.length;
    text += `xref\n0 1\n0000000000 65535 f \n${first} ${offs.length}\n`;
    for (const o of offs) text += `${String(o).padStart(10, '0')} 00000 n \n`;
    text += `trailer\n${trailer}\nstartxref\n${at}\n%%EOF\n`;
    return at;
  };
  const prev = xref(1, offsets, `<< /Size ${objects.length + 1} /Root 1 0 R >>`);
  if (update !== undefined) {
    // a newer page tree root with fewer pages (the first `update` kids), the old one left in the file
    const at = text.length;
    const kids = Array.from({ length: update }, (_, i) => `${i + 3} 0 R`).join(' ');
    text += `2 0 obj\n<< /Type /Pages /Kids [${kids}] /Count ${update} >>\nendobj\n`;
    xref(2, [at], `<< /Size ${objects.length + 1} /Root 1 0 R /Prev ${prev} >>`);
  }
  return text;
}

describe('PDF page count: the page tree root through the cross-reference table', () => {
  it('a 101-page PDF, and the corpus one', () => {
    assert.equal(pdfPageCount(reader(pdf(101))), 101);
    const body = JSON.parse(fs.readFileSync('test/fixtures/rejected/pdf-too-many-pages.json', 'utf8')) as {
      messages: { content: { source: { data: string } }[] }[];
    };
    assert.equal(pdfPageCount(new Base64Reader(body.messages[0]!.content[0]!.source.data)), 101);
  });
  it('an incremental update: the newest root counts, found through /Prev for the objects it did not change', () => {
    assert.equal(pdfPageCount(reader(pdf(120, 3))), 3);
  });
  it('a large file reads a few kilobytes: the count of a 7 MB PDF without decoding it', () => {
    const big = pdf(2).replace('%PDF-1.4\n', `%PDF-1.4\n%${'x'.repeat(7_000_000)}\n`);
    // the offsets moved with the comment: rebuild them the way a writer would
    const fixed = pdf(2);
    const shift = big.length - fixed.length;
    const text = big.replace(
      /(\d{10}) 00000 n/g,
      (_, o: string) => `${String(Number(o) + shift).padStart(10, '0')} 00000 n`,
    );
    const r = reader(text.replace(/startxref\n(\d+)/, (_, n: string) => `startxref\n${Number(n) + shift}`));
    let decoded = 0;
    const read = r.read.bind(r);
    r.read = (at, n) => {
      decoded += n;
      return read(at, n);
    };
    assert.equal(pdfPageCount(r), 2);
    assert.ok(decoded < 200_000, `${decoded} bytes decoded`);
  });
  it('a small PDF whose table does not match is searched instead; a page tree out of sight gives no count', () => {
    assert.equal(pdfPageCount(reader(pdf(7).replace(/startxref\n\d+/, 'startxref\n5'))), 7);
    assert.equal(
      pdfPageCount(reader('%PDF-1.5\n1 0 obj\n<< /Type /ObjStm /N 3 >>\nstream\nx\nendstream\n%%EOF')),
      undefined,
    );
  });
});
