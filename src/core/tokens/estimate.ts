// The count shown without the service (no key, offline, live counting off), and the offline demo's count_tokens.
import { pickCountFields } from '../api/countFields';

/** An approximate local count (about four characters a token), shown as an estimate, never as the service's number. */
export function estimateTokens(body: Record<string, unknown>): number {
  const counted = pickCountFields(body);
  delete counted.model;
  return Math.max(1, Math.ceil(JSON.stringify(counted).length / 4));
}
