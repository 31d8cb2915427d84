// Fields outside the groups above: metadata.
import type { PathProblem } from '../types';
import { isObj, type Obj } from './common';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** doc1 §2.1: user_id should be opaque (a uuid or a hash). */
export function metadataRules(body: Obj, out: PathProblem[]): void {
  const md = body.metadata;
  if (isObj(md) && typeof md.user_id === 'string' && EMAIL.test(md.user_id.trim())) {
    out.push({
      path: ['metadata', 'user_id'],
      anchor: 'value',
      severity: 'warning',
      code: 'user-id-email',
      message: 'metadata.user_id looks like an e-mail address; it should be an opaque value such as a uuid or a hash.',
    });
  }
}
