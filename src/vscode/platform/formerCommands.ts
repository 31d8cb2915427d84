// Command ids Promptwright had before every id took one scheme (`promptwright.verbNoun`): each still runs the
// command it became, so no keybinding or script that names it breaks. package.json contributes them hidden from
// the Command Palette (test/unit/commands.test.ts checks both lists agree); extension.ts registers them.

/** A former id and the command it runs now. */
export const FORMER_COMMAND_IDS: Readonly<Record<string, string>> = {
  'promptwright.admin.refresh': 'promptwright.refreshOrganization',
  'promptwright.admin.showArchived': 'promptwright.showArchivedWorkspaces',
  'promptwright.admin.hideArchived': 'promptwright.hideArchivedWorkspaces',
  'promptwright.admin.newWorkspace': 'promptwright.newWorkspace',
  'promptwright.admin.editWorkspace': 'promptwright.editWorkspace',
  'promptwright.admin.archiveWorkspace': 'promptwright.archiveWorkspace',
  'promptwright.admin.openJson': 'promptwright.openOrganizationJson',
  'promptwright.admin.showRateLimits': 'promptwright.showWorkspaceRateLimits',
  'promptwright.admin.filterUsers': 'promptwright.filterUsers',
  'promptwright.admin.clearUserFilter': 'promptwright.clearUserFilter',
  'promptwright.admin.changeRole': 'promptwright.changeUserRole',
  'promptwright.admin.removeUser': 'promptwright.removeUser',
  'promptwright.admin.invite': 'promptwright.inviteUser',
  'promptwright.admin.deleteInvite': 'promptwright.deleteInvite',
  'promptwright.compliance.openActivityFeed': 'promptwright.openActivityFeed',
  'promptwright.compliance.refresh': 'promptwright.refreshCompliance',
  'promptwright.compliance.showChats': 'promptwright.showUserChats',
  'promptwright.compliance.showProject': 'promptwright.showProjectAttachments',
  'promptwright.compliance.removeQuery': 'promptwright.removeComplianceQuery',
  'promptwright.compliance.openJson': 'promptwright.openComplianceJson',
  'promptwright.compliance.deleteChat': 'promptwright.deleteChat',
  'promptwright.compliance.deleteProject': 'promptwright.deleteProject',
  'promptwright.compliance.deleteFile': 'promptwright.deleteFile',
  'promptwright.admin.retry': 'promptwright.refreshOrganization',
  'promptwright.compliance.retry': 'promptwright.refreshCompliance',
  'promptwright.loadMoreResources': 'promptwright.loadMore',
  'promptwright.admin.loadMore': 'promptwright.loadMore',
  'promptwright.compliance.loadMore': 'promptwright.loadMore',
  'promptwright.loadAllResources': 'promptwright.loadAll',
};
