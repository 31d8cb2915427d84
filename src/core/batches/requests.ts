// A suite's requests as Message Batches requests: each cell × sample gets a `custom_id` that says where it
// comes from and changes when what it sends changes, and the requests are split into batches the service
// takes (at most 100,000 requests and 256 MB a batch, the public API's caps).
import * as crypto from 'node:crypto';
import { BATCH_MAX_BYTES, BATCH_MAX_REQUESTS, CUSTOM_ID, type BatchRequest } from '../api/batches';

/** Where one request of a suite comes from: its case file (as shown), case, model, sample, and what it sends. */
export interface JobIdentity {
  file: string;
  caseName: string;
  model: string;
  /** the sample's place in its cell, from 0 */
  sample: number;
  body: Record<string, unknown>;
}

const hex = (s: string, n: number) => crypto.createHash('sha256').update(s).digest('hex').slice(0, n);

/** The case's name in the id's allowed characters, short: a person reading the service's console sees which. */
function slug(name: string): string {
  const s = name
    .normalize('NFKD')
    .replace(/[^a-zA-Z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 20)
    .replace(/-+$/, '');
  return s || 'case';
}

/**
 * A request's `custom_id`: `<case>_<where>_s<sample>_<what>`, where `where` hashes the case file, case and
 * model, and `what` hashes the filled request as sent. The same suite unchanged gives the same ids; a request
 * whose body changed gets a new one. At most 64 characters of `[a-zA-Z0-9_-]`.
 */
export function customIdOf(j: JobIdentity): string {
  const where = hex(`${j.file}\0${j.caseName}\0${j.model}`, 10);
  const what = hex(JSON.stringify(j.body), 12);
  const id = `${slug(j.caseName)}_${where}_s${j.sample}_${what}`;
  if (!CUSTOM_ID.test(id)) throw new RangeError(`custom_id ${id} is not of the allowed form`);
  return id;
}

/**
 * The ids of a suite's requests, in order, unique: a request that comes twice (the same case file given twice)
 * gets `-2`, `-3`… in the order it comes, so the ids stay stable.
 */
export function customIds(jobs: readonly JobIdentity[]): string[] {
  const seen = new Map<string, number>();
  return jobs.map(j => {
    const id = customIdOf(j);
    const n = (seen.get(id) ?? 0) + 1;
    seen.set(id, n);
    return n === 1 ? id : `${id}-${n}`;
  });
}

/** The caps of one batch. */
export interface BatchCaps {
  maxRequests: number;
  maxBytes: number;
}

export const BATCH_CAPS: BatchCaps = { maxRequests: BATCH_MAX_REQUESTS, maxBytes: BATCH_MAX_BYTES };

/** The bytes `{"requests":[` and `]}` add to a create body. */
const ENVELOPE_BYTES = Buffer.byteLength('{"requests":[]}');

/** A request too large for any batch: which, and its size. */
export class RequestTooLarge extends Error {
  override name = 'RequestTooLarge';
  constructor(
    readonly customId: string,
    readonly bytes: number,
    readonly maxBytes: number,
  ) {
    super(`request ${customId} is ${bytes} bytes: more than a batch may hold (${maxBytes} bytes)`);
  }
}

/**
 * The requests cut into batches, in order: a batch is closed when one more request would take it over
 * `maxRequests` or its create body over `maxBytes` (the requests, their commas and the envelope).
 */
export function splitIntoBatches(requests: readonly BatchRequest[], caps: BatchCaps = BATCH_CAPS): BatchRequest[][] {
  return splitBySize(requests, r => ({ id: r.custom_id, bytes: Buffer.byteLength(JSON.stringify(r)) }), caps);
}

/** `splitIntoBatches` for requests whose size is known without them (kept on disk): `sizeOf` says it. */
export function splitBySize<T>(
  requests: readonly T[],
  sizeOf: (r: T) => { id: string; bytes: number },
  caps: BatchCaps = BATCH_CAPS,
): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  let bytes = ENVELOPE_BYTES;
  for (const r of requests) {
    const { id, bytes: size } = sizeOf(r);
    if (ENVELOPE_BYTES + size > caps.maxBytes) throw new RequestTooLarge(id, size, caps.maxBytes);
    const comma = current.length ? 1 : 0;
    if (current.length && (current.length >= caps.maxRequests || bytes + comma + size > caps.maxBytes)) {
      out.push(current);
      current = [];
      bytes = ENVELOPE_BYTES;
    }
    bytes += (current.length ? 1 : 0) + size;
    current.push(r);
  }
  if (current.length) out.push(current);
  return out;
}
