// Images and PDF documents: their base64 data, their format against their media_type, their size, and how
// many of them (images and PDF pages together) one request holds. Headers only: no image is decoded whole.
// The limits and messages come from public reports of the service's own 400 messages (RULES.md, Evidence).
import { imageSize, pdfPageCount, readerOf, scanBase64, sniff } from '../media';
import type { ModelInfo } from '../../models/table';
import type { FixData, Path, PathProblem } from '../types';
import { isObj, type Obj, type RuleContext } from './common';
import { thousands } from '../../text';

/** 5 MiB: the service's message says "5 MB maximum: … bytes > 5242880 bytes". */
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const MAX_IMAGE_SIDE = 8000;
/** The cap on each side when a request has more than MANY_IMAGES images. */
const MANY_IMAGES_SIDE = 2000;
const MANY_IMAGES = 20;
/** Images and PDF pages per request (the service counts them together). */
const MAX_MEDIA = 100;
const MAX_PDF_PAGES = 100;
/** The media limit is known for models with this context window, and for larger ones that say so (maxMedia). */
const MEDIA_LIMIT_WINDOW = 200_000;
/** The beta that gives a model its 1M-token window; with it, the limit may be higher (not shown in the record). */
const LONG_CONTEXT_BETA = 'context-1m-2025-08-07';
const IMAGE_TYPES: readonly string[] = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
/** The blocks that are, or may hold, an image or a PDF. */
const MEDIA_HOLDERS = new Set<unknown>(['image', 'document', 'tool_result']);

interface Medium {
  block: Obj;
  at: Path;
}

/** Image blocks and PDF documents in the order the service reads them, nested ones included. */
function collect(msgs: unknown[]): { images: Medium[]; pdfs: Medium[]; order: Medium[] } {
  const images: Medium[] = [];
  const pdfs: Medium[] = [];
  const order: Medium[] = [];
  // the block messages[i].content[j], or one at `rest` inside it
  const visit = (b: Obj, i: number, j: number, rest: Path) => {
    if (b.type === 'image') {
      const m = { block: b, at: ['messages', i, 'content', j, ...rest] };
      images.push(m);
      order.push(m);
    } else if (b.type === 'document' && isObj(b.source)) {
      const s = b.source;
      if (s.type === 'url' || s.type === 'file' || (s.type === 'base64' && s.media_type === 'application/pdf')) {
        const m = { block: b, at: ['messages', i, 'content', j, ...rest] };
        pdfs.push(m);
        order.push(m);
      } else if (s.type === 'content') children(s.content, i, j, [...rest, 'source', 'content']);
    } else if (b.type === 'tool_result') children(b.content, i, j, rest.length ? [...rest, 'content'] : CONTENT);
  };
  const children = (list: unknown, i: number, j: number, rest: Path) => {
    if (!Array.isArray(list)) return;
    for (let k = 0; k < list.length; k++) {
      const c: unknown = list[k];
      if (isObj(c) && MEDIA_HOLDERS.has(c.type)) visit(c, i, j, [...rest, k]);
    }
  };
  // plain loops, and paths built only for media and what holds them: this walk runs over every block
  for (let i = 0; i < msgs.length; i++) {
    const m: unknown = msgs[i];
    if (!isObj(m) || !Array.isArray(m.content)) continue;
    for (let j = 0; j < m.content.length; j++) {
      const b: unknown = m.content[j];
      if (isObj(b) && MEDIA_HOLDERS.has(b.type)) visit(b, i, j, HERE);
    }
  }
  return { images, pdfs, order };
}

const HERE: Path = [];
const CONTENT: Path = ['content'];

export function mediaRules(body: Obj, info: ModelInfo | undefined, ctx: RuleContext, out: PathProblem[]): void {
  if (!Array.isArray(body.messages)) return;
  const { images, pdfs, order } = collect(body.messages);
  if (!images.length && !pdfs.length) return;
  const sides = new Map<Medium, number>();
  for (const m of images) {
    const side = imageRules(m, out);
    if (side !== undefined) sides.set(m, side);
  }
  if (images.length > MANY_IMAGES) {
    for (const [m, side] of sides) {
      if (side <= MANY_IMAGES_SIDE || side > MAX_IMAGE_SIDE) continue;
      out.push({
        path: [...m.at, 'source', 'data'],
        anchor: 'value',
        severity: 'error',
        code: 'image-dimensions-many-images',
        message:
          `This image is ${side} pixels on its longer side; in a request with more than ${MANY_IMAGES} images ` +
          `(this one has ${images.length}) each image may be at most ${MANY_IMAGES_SIDE} pixels per side. ` +
          'Scale it down, or send fewer images.',
      });
    }
  }
  const pages = new Map<Medium, number>();
  for (const m of pdfs) pages.set(m, pdfRules(m, out) ?? 1);
  if (info && mediaLimited(info, ctx)) tooMuchMedia(order, images.length, pages, info, out);
  if (info?.imageInput === false && images[0]) inputUnsupported(info.id, 'image', images, out);
  if (info?.pdfInput === false && pdfs[0]) inputUnsupported(info.id, 'PDF', pdfs, out);
}

/**
 * Whether the 100 images and pages hold: on 200k-window models, and on the larger-window models of the 4.6
 * generation (a 2026 report), unless the configured betas include the 1M-context one, which may raise it.
 */
function mediaLimited(info: ModelInfo, ctx: RuleContext): boolean {
  if (info.contextWindow <= MEDIA_LIMIT_WINDOW) return true;
  return info.maxMedia !== undefined && !ctx.betas.includes(LONG_CONTEXT_BETA);
}

/**
 * The service's model list says the model takes no images (or PDFs). A warning: no report shows the
 * service's message for it. Marked on the first one, with how many there are.
 */
function inputUnsupported(model: string, what: string, found: Medium[], out: PathProblem[]): void {
  const more = found.length > 1 ? ` (this request has ${found.length})` : '';
  out.push({
    path: found[0]!.at,
    anchor: 'value',
    severity: 'warning',
    code: 'media-input-unsupported',
    message:
      `The service's model list says ${model} does not take ${what} input${more}: the service may refuse the ` +
      `request. Describe the ${what === 'image' ? 'image' : 'document'} in text, or use a model that takes it.`,
  });
}

/** One image: its base64 data, format and size. Returns its longer side when its header could be read. */
function imageRules(m: Medium, out: PathProblem[]): number | undefined {
  const src = m.block.source;
  if (!isObj(src) || src.type !== 'base64' || typeof src.data !== 'string') return undefined;
  const data = src.data;
  const onData: Path = [...m.at, 'source', 'data'];
  const error = (code: PathProblem['code'], message: string, fixes?: FixData[]) =>
    out.push({ path: onData, anchor: 'value', severity: 'error', code, message, ...(fixes ? { fixes } : {}) });
  if (data === '') {
    error('image-empty-data', 'The image data is empty: put the base64 of the image here, or remove the block.');
    return undefined;
  }
  const scan = scanBase64(data);
  if (!scan.ok) {
    const prefix = /^data:[^,]{0,100};base64,/.exec(data);
    const fixes: FixData[] | undefined = prefix
      ? [
          {
            kind: 'replace-value',
            title: 'Remove the "data:" URL prefix',
            path: onData,
            value: data.slice(prefix[0].length),
          },
        ]
      : undefined;
    const where = scan.at < data.length ? ` (at character ${scan.at})` : '';
    error(
      'image-invalid-base64',
      prefix
        ? `The image data starts with a data URL prefix ("${prefix[0]}"); "data" takes the base64 text alone.`
        : `The image data is not valid base64: ${scan.reason}${where}.`,
      fixes,
    );
    return undefined;
  }
  if (scan.bytes > MAX_IMAGE_BYTES) {
    error(
      'image-too-large-bytes',
      `The image is ${thousands(scan.bytes)} bytes; the service takes images of at most 5 MB ` +
        `(${thousands(MAX_IMAGE_BYTES)} bytes). Compress or scale it down.`,
    );
  }
  const r = readerOf(data, scan.spaced);
  const found = sniff(r);
  if (!found || found === 'application/pdf') {
    out.push({
      path: onData,
      anchor: 'value',
      severity: 'warning',
      code: 'unknown-media-format',
      message:
        `The data ${found ? 'is a PDF, not an image' : 'is not a PNG, JPEG, GIF or WebP image'} (its first bytes ` +
        'say so): the service may refuse it as an image it cannot process.',
    });
    return undefined;
  }
  if (typeof src.media_type === 'string' && IMAGE_TYPES.includes(src.media_type) && src.media_type !== found) {
    out.push({
      path: [...m.at, 'source', 'media_type'],
      anchor: 'value',
      severity: 'error',
      code: 'image-media-type-mismatch',
      message: `The image is declared as ${src.media_type}, but its data is a ${found.slice(6).toUpperCase()} image.`,
      fixes: [
        { kind: 'replace-value', title: `Use "${found}"`, path: [...m.at, 'source', 'media_type'], value: found },
      ],
    });
  }
  const size = imageSize(r, found);
  if (!size) return undefined;
  const side = Math.max(size.width, size.height);
  if (side > MAX_IMAGE_SIDE) {
    error(
      'image-dimensions-too-large',
      `The image is ${size.width} × ${size.height} pixels; the service takes at most ${MAX_IMAGE_SIDE} pixels ` +
        'per side. Scale it down, or cut it into parts.',
    );
  }
  return side;
}

/** One PDF document: its format and page count. Returns the page count when it could be read. */
function pdfRules(m: Medium, out: PathProblem[]): number | undefined {
  const src = m.block.source;
  if (!isObj(src) || src.type !== 'base64' || typeof src.data !== 'string') return undefined;
  const onData: Path = [...m.at, 'source', 'data'];
  const scan = src.data === '' ? undefined : scanBase64(src.data);
  const r = scan?.ok ? readerOf(src.data, scan.spaced) : undefined;
  if (!r || sniff(r) !== 'application/pdf') {
    const what = !scan ? 'is empty' : !scan.ok ? `is not valid base64 (${scan.reason})` : 'does not start as a PDF';
    out.push({
      path: onData,
      anchor: 'value',
      severity: 'warning',
      code: 'unknown-media-format',
      message: `The document data ${what}: the service may refuse it as a PDF it cannot read.`,
    });
    return undefined;
  }
  const pages = pdfPageCount(r);
  if (pages !== undefined && pages > MAX_PDF_PAGES) {
    out.push({
      path: onData,
      anchor: 'value',
      severity: 'error',
      code: 'pdf-too-many-pages',
      message: `This PDF has ${pages} pages; the service takes at most ${MAX_PDF_PAGES}. Split it into parts.`,
    });
  }
  return pages;
}

/** Images and PDF pages together, marked on the block that takes the count past the limit. */
function tooMuchMedia(
  order: Medium[],
  images: number,
  pages: Map<Medium, number>,
  info: ModelInfo,
  out: PathProblem[],
): void {
  let docPages = 0;
  for (const n of pages.values()) docPages += n;
  if (docPages + images <= MAX_MEDIA) return;
  let seen = 0;
  for (const m of order) {
    seen += pages.get(m) ?? 1;
    if (seen <= MAX_MEDIA) continue;
    out.push({
      path: m.at,
      anchor: 'value',
      severity: 'error',
      code: 'too-much-media',
      message:
        `Too much media: ${docPages} document pages + ${images} images > ${MAX_MEDIA}. The service takes at most ` +
        `${MAX_MEDIA} images and PDF pages per request; from this block on, the request is over. Send fewer, or ` +
        'split the work across requests.' +
        (info.contextWindow > MEDIA_LIMIT_WINDOW
          ? ' (A 2026 report shows this limit on the 4.6 models too; if your code sends the beta ' +
            `${LONG_CONTEXT_BETA}, which a request file cannot show, add it to promptwright.betas.)`
          : ''),
      ...(info.contextWindow > MEDIA_LIMIT_WINDOW
        ? {
            fixes: [
              {
                kind: 'add-beta',
                title: `Add the beta "${LONG_CONTEXT_BETA}" to promptwright.betas`,
                beta: LONG_CONTEXT_BETA,
              },
            ] as FixData[],
          }
        : {}),
    });
    return;
  }
}
