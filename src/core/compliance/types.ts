// Compliance records (doc3 §2.3). The spec shows identifiers, `deleted_at` and the pagination fields;
// everything else a record carries is kept as it came.

export interface Activity {
  id: string;
  created_at?: string;
  updated_at?: string;
  [field: string]: unknown;
}

export interface ComplianceOrganization {
  id: string;
  name?: string;
  [field: string]: unknown;
}

export interface Chat {
  id: string;
  deleted_at?: string | null;
  [field: string]: unknown;
}

export interface Attachment {
  id: string;
  [field: string]: unknown;
}

export interface Deletion {
  id: string;
  [field: string]: unknown;
}

/** The type of an activity record, whichever field carries it. */
export function activityType(a: Activity): string {
  const t = a.activity_type ?? a.type;
  return typeof t === 'string' ? t : '';
}

/**
 * An activity type as a person reads it: "model_chat_created" is "Chat created", "org_deleted_via_bulk"
 * "Organization deleted via bulk"; a type the spec does not list is read the same way.
 */
export function activityLabel(type: string): string {
  const words = type
    .replace(/^model_/, '')
    .replace(/^org_/, 'organization_')
    .split('_')
    .filter(Boolean)
    .join(' ');
  return words ? `${words[0]!.toUpperCase()}${words.slice(1)}` : type;
}
