// How compliance records read in a tree: labels, descriptions, tooltips, what is dimmed (a chat its user
// soft-deleted stays readable with `deleted_at`, doc3 §2.3), and the organizations as the tree they form.
// Pure, so the wording is tested without an editor.
import type { ItemView } from '../admin/view';
import { count, markdownCode as code, markdownText as md } from '../text';
import type { Attachment, Chat, ComplianceOrganization } from './types';

const date = (v: unknown) => (typeof v === 'string' ? v.slice(0, 10) : '');
const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** The fields a tooltip lists after the heading: every plain value the record carries, in its order. */
function fieldLines(record: Record<string, unknown>, skip: readonly string[]): string[] {
  return Object.entries(record)
    .filter(([k, v]) => !skip.includes(k) && v !== null && v !== undefined && typeof v !== 'object')
    .map(([k, v]) => `- ${md(k)}: ${md(String(v))}`);
}

export function chatView(c: Chat): ItemView {
  const deleted = typeof c.deleted_at === 'string' && c.deleted_at !== '';
  const name = text(c.name) || c.id;
  const parts = [
    deleted ? `deleted by its user ${date(c.deleted_at)}` : date(c.updated_at ?? c.created_at),
    text(c.user_id),
    text(c.project_id) ? `in ${text(c.project_id)}` : '',
  ];
  return {
    label: name,
    description: parts.filter(Boolean).join(' · '),
    tooltip: [
      `**${md(name)}** ${code(c.id)}`,
      '',
      ...(deleted ? ['Soft-deleted by its user: it stays readable here until it is deleted permanently.', ''] : []),
      ...fieldLines(c, ['id', 'name']),
    ].join('\n'),
    dim: deleted,
  };
}

export function attachmentView(a: Attachment): ItemView {
  const name = text(a.name) || a.id;
  return {
    label: name,
    description: [text(a.type) === 'project_document' ? 'project document' : text(a.type), date(a.created_at)]
      .filter(Boolean)
      .join(' · '),
    tooltip: [`**${md(name)}** ${code(a.id)}`, '', ...fieldLines(a, ['id', 'name'])].join('\n'),
  };
}

/** Whether an attachment can be deleted as a file (a project document is not a file, doc3 §2.3). */
export function isFile(a: Attachment): boolean {
  return text(a.type) !== 'project_document' && !a.id.includes('_proj_doc_');
}

export function organizationView(o: ComplianceOrganization, children: number): ItemView {
  const name = text(o.name) || o.id;
  return {
    label: name,
    description: [o.id, children ? count(children, 'linked organization') : ''].filter(Boolean).join(' · '),
    tooltip: [`**${md(name)}** ${code(o.id)}`, '', ...fieldLines(o, ['id', 'name'])].join('\n'),
  };
}

export interface OrganizationTree {
  roots: ComplianceOrganization[];
  children: Map<string, ComplianceOrganization[]>;
}

/**
 * The linked organizations as a tree, by `parent_id` when records carry it (the spec shows no fields, so
 * a list without parents is a flat list of roots). A parent outside the list makes its child a root;
 * a cycle cannot hide an organization, because only records whose parent is present and reachable from a
 * root are nested.
 */
export function organizationTree(orgs: readonly ComplianceOrganization[]): OrganizationTree {
  const byId = new Map(orgs.map(o => [o.id, o]));
  const parentOf = (o: ComplianceOrganization) => {
    const p = text(o.parent_id);
    return p && p !== o.id && byId.has(p) ? p : undefined;
  };
  const children = new Map<string, ComplianceOrganization[]>();
  const roots = orgs.filter(o => !parentOf(o));
  for (const o of orgs) {
    const p = parentOf(o);
    if (p) children.set(p, [...(children.get(p) ?? []), o]);
  }
  // organizations caught in a parent cycle are reachable from no root: the first of each cycle becomes one
  const reached = new Set<string>();
  const reach = (from: ComplianceOrganization) => {
    const stack = [from];
    while (stack.length) {
      const o = stack.pop()!;
      if (reached.has(o.id)) continue;
      reached.add(o.id);
      stack.push(...(children.get(o.id) ?? []));
    }
  };
  roots.forEach(reach);
  for (const o of orgs) {
    if (reached.has(o.id)) continue;
    const p = parentOf(o)!;
    children.set(
      p,
      children.get(p)!.filter(c => c !== o),
    );
    roots.push(o);
    reach(o);
  }
  return { roots, children };
}

/** Comma- or space-separated identifiers, trimmed, without duplicates. */
export function parseIds(s: string): string[] {
  return [...new Set(s.split(/[\s,]+/).filter(Boolean))];
}
