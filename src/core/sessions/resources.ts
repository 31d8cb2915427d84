// Session resources (doc2 §2.1, §4.1) for the tree: how each one is described, and what Attach File takes.
// The tree loads them a page at a time like every paged list (core/api/pager.ts).
import { asText } from '../text';
import type { SessionResource } from '../api/types';

export interface ResourceView {
  label: string;
  description: string;
  icon: 'repo' | 'file' | 'database' | 'question';
  /** every field, for the tooltip */
  fields: [string, string][];
}

const s = asText;

export function describeResource(r: SessionResource): ResourceView {
  const fields = Object.entries(r).map(([k, v]) => [k, s(v)] as [string, string]);
  if (r.type === 'github_repository') {
    const url = s(r.url);
    const co = r.checkout as { type?: string; name?: string; sha?: string } | undefined;
    const checkout =
      co?.type === 'branch' ? `branch ${s(co.name)}` : co?.type === 'commit' ? `commit ${s(co.sha).slice(0, 12)}` : '';
    return {
      label: url.replace(/^https?:\/\/(www\.)?github\.com\//, '') || s(r.id),
      description: [checkout, s(r.mount_path)].filter(Boolean).join(' · '),
      icon: 'repo',
      fields,
    };
  }
  if (r.type === 'file') return { label: s(r.file_id) || s(r.id), description: s(r.mount_path), icon: 'file', fields };
  if (r.type === 'memory_store') {
    return {
      label: s(r.name) || s(r.memory_store_id),
      description: [s(r.access).replace('_', '-'), s(r.mount_path)].filter(Boolean).join(' · '),
      icon: 'database',
      fields,
    };
  }
  return { label: s(r.id) || s(r.type), description: s(r.type), icon: 'question', fields };
}

/** Validates Attach File input (doc2 §4.1): a file_id, and an optional absolute mount path. */
export function checkAttachInput(fileId: string, mountPath: string): string | undefined {
  if (!fileId.trim()) return 'A file_id is required (a previously uploaded file).';
  if (/\s/.test(fileId.trim())) return 'A file_id has no spaces.';
  if (mountPath.trim() && !mountPath.trim().startsWith('/'))
    return 'The mount path is absolute, e.g. /mnt/session/uploads/report.pdf.';
  return undefined;
}

export const defaultMountPath = (fileId: string) => `/mnt/session/uploads/${fileId}`;
