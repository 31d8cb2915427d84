// How the administration objects read in a tree: labels, one-line descriptions, tooltips, and what is
// dimmed (archived workspaces, expired invites). Pure, so the wording is tested without an editor. Every value in
// a tooltip is the service's, set in as text (md) or code: no link, image or icon can come from it.
import { markdownCode as code, markdownText as md } from '../text';
import type { Invite, User, Workspace } from './types';

export interface ItemView {
  label: string;
  description: string;
  /** markdown */
  tooltip: string;
  /** shown dimmed */
  dim?: boolean;
}

const date = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : '');

export function allowedText(allowed: string[] | 'unrestricted' | undefined): string {
  if (allowed === undefined) return '';
  return allowed === 'unrestricted' ? 'unrestricted' : allowed.join(', ') || 'none';
}

export function workspaceView(w: Workspace): ItemView {
  const r = w.data_residency;
  const tags = Object.entries(w.tags ?? {});
  const parts = [
    r?.workspace_geo,
    r ? `default ${r.default_inference_geo}` : undefined,
    tags.length ? `${tags.length} tag${tags.length === 1 ? '' : 's'}` : undefined,
    w.archived_at ? `archived ${date(w.archived_at)}` : undefined,
  ];
  const lines = [
    `**${md(w.name)}** ${code(w.id)}`,
    '',
    `- workspace geo: ${md(r?.workspace_geo ?? '?')} (fixed when the workspace was created)`,
    `- allowed inference geos: ${md(allowedText(r?.allowed_inference_geos))}`,
    `- default inference geo: ${md(r?.default_inference_geo ?? '?')}`,
    `- tags: ${tags.length ? tags.map(([k, v]) => `${code(k)}=${md(v)}`).join(', ') : 'none'}`,
    `- colour: ${md(w.display_color ?? '')}`,
    `- created: ${md(date(w.created_at))}${w.archived_at ? ` · archived: ${md(date(w.archived_at))}` : ''}`,
  ];
  return {
    label: w.name,
    description: parts.filter(Boolean).join(' · '),
    tooltip: lines.join('\n'),
    dim: !!w.archived_at,
  };
}

export function userView(u: User): ItemView {
  return {
    label: u.name,
    description: `${u.email} · ${u.role}`,
    tooltip: [
      `**${md(u.name)}** ${code(u.id)}`,
      '',
      `- ${md(u.email)}`,
      `- role: ${md(u.role)}`,
      `- added: ${md(date(u.added_at))}`,
    ].join('\n'),
  };
}

/** An invite is expired by its status, or by its expiry date passing while it was still pending. */
function isExpired(i: Invite, now: Date): boolean {
  return i.status === 'expired' || (i.status === 'pending' && Date.parse(i.expires_at) < now.getTime());
}

export function inviteView(i: Invite, now: Date): ItemView {
  const expired = isExpired(i, now);
  const status = expired && i.status === 'pending' ? 'expired' : i.status;
  return {
    label: i.email,
    // the expiry matters while an invite can still be accepted
    description:
      status === 'pending' || status === 'expired'
        ? `${i.role} · ${status} · ${expired ? 'expired' : 'expires'} ${date(i.expires_at)}`
        : `${i.role} · ${status}`,
    tooltip: [
      `**${md(i.email)}** ${code(i.id)}`,
      '',
      `- role: ${md(i.role)}`,
      `- status: ${md(status)}`,
      `- invited: ${md(date(i.invited_at))}`,
      `- expires: ${md(date(i.expires_at))}`,
    ].join('\n'),
    dim: expired || i.status === 'deleted',
  };
}

/** A small round icon in the workspace's display colour (an SVG data URI). */
export function colorIcon(hex: string | undefined): string | undefined {
  if (!hex || !/^#[0-9a-fA-F]{3,8}$/.test(hex)) return undefined;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><circle cx="8" cy="8" r="5" fill="${hex}"/></svg>`;
  return `data:image/svg+xml;utf8,${encodeURIComponent(svg)}`;
}
