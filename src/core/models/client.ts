// The models interface (doc3 §9.5) with the standard API key: the list a cursor page at a time (the paging
// the administration lists use: a page that fails, a 429 included, is asked again with the same cursor), and
// one model by id or alias.
import { InputError } from '../api/errors';
import type { CallOptions, Http } from '../api/http';
import { collect, cursorPages, type CursorOptions, type CursorPage } from '../api/paging';
import type { ServiceModel } from './types';

/** The most models one page holds (the public API: `limit` 1 to 1000, default 20). */
const MAX_PAGE = 1000;

export class ModelsClient {
  constructor(private readonly http: Http) {}

  /** GET /v1/models, newest first, a page at a time. */
  pages(o: CursorOptions = {}): AsyncGenerator<CursorPage<ServiceModel>> {
    const size = o.pageSize;
    if (size !== undefined && (!Number.isInteger(size) || size < 1 || size > MAX_PAGE))
      throw new InputError(`limit must be a whole number from 1 to ${MAX_PAGE}, got ${size}`);
    return cursorPages<ServiceModel>(this.http, { method: 'GET', path: '/v1/models' }, o);
  }

  /** Every model, in the service's order: all pages, of the largest size. */
  all(c: CallOptions = {}): Promise<ServiceModel[]> {
    return collect(this.pages({ ...c, pageSize: MAX_PAGE }));
  }

  /** GET /v1/models/{id}: an alias answers with the model it points to; an unknown id is a 404 ApiError. */
  async get(id: string, c: CallOptions = {}): Promise<ServiceModel> {
    if (!id.trim()) throw new InputError('a model id is required');
    const path = `/v1/models/${encodeURIComponent(id.trim())}`;
    return (await this.http.json<ServiceModel>({ method: 'GET', path }, c)).data;
  }
}
