// The administration interface's objects (doc2 §2.2–§2.6).

export type Role = 'user' | 'developer' | 'billing' | 'admin' | 'model_code_user';
/** Roles an invite or a role change may give: never `admin` (doc2 §4.2). */
export const ASSIGNABLE_ROLES = ['user', 'developer', 'billing', 'model_code_user'] as const;
export type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];

export interface Organization {
  id: string;
  name: string;
  type: 'organization';
}

export interface Invite {
  id: string;
  email: string;
  expires_at: string;
  invited_at: string;
  role: Role;
  status: 'pending' | 'accepted' | 'expired' | 'deleted';
  type: 'invite';
}

export interface User {
  id: string;
  added_at: string;
  email: string;
  name: string;
  role: Role;
  type: 'user';
}

export interface DataResidency {
  allowed_inference_geos: string[] | 'unrestricted';
  default_inference_geo: string;
  workspace_geo: string;
}

export interface Workspace {
  id: string;
  archived_at: string | null;
  created_at: string;
  data_residency: DataResidency;
  display_color: string;
  name: string;
  tags: Record<string, string>;
  type: 'workspace';
}

export interface Deleted {
  id: string;
  type: 'invite_deleted' | 'user_deleted';
}

/** What `POST /v1/organizations/workspaces` takes. */
export interface WorkspaceCreate {
  name: string;
  data_residency?: Partial<DataResidency>;
  tags?: Record<string, string>;
}

/** What `POST /v1/organizations/workspaces/{id}` takes: `workspace_geo` cannot be changed. */
export interface WorkspaceUpdate {
  name?: string;
  tags?: Record<string, string>;
  data_residency?: Partial<Pick<DataResidency, 'allowed_inference_geos' | 'default_inference_geo'>>;
}

/** The defaults the service applies when a workspace is created without `data_residency` (doc2 §4.2). */
export const WORKSPACE_DEFAULTS: DataResidency = {
  workspace_geo: 'us',
  allowed_inference_geos: 'unrestricted',
  default_inference_geo: 'global',
};
