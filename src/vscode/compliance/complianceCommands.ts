import * as vscode from 'vscode';
import { ApiError } from '../../core/api/errors';
import type { ComplianceClient } from '../../core/compliance/client';
import type { Chat } from '../../core/compliance/types';
import { parseIds } from '../../core/compliance/view';
import { count } from '../../core/text';
import type { JsonDocuments } from '../platform/jsonDocuments';
import type { Log } from '../platform/log';
import { vscodePrompts, type Prompts } from '../platform/prompts';
import type { ComplianceAccess } from './access';
import type { ComplianceNode, ComplianceTree } from './complianceTree';

const PERMANENT = 'The delete is immediate and permanent: it cannot be undone, and the content cannot be recovered.';
/** how many chats a confirmation names before "and N more" */
const LISTED = 15;

/**
 * The Compliance view's actions. Every delete asks first, in a modal that says it is immediate and
 * permanent (cancel sends nothing); a project that still has chats gets the spec's 409, and then, only if
 * the person agrees again, its chats are deleted one by one before the project is asked for again.
 */
export class ComplianceCommands {
  /** replaced by extension-host tests to answer the dialogs */
  prompts: Prompts = vscodePrompts;

  constructor(
    private readonly access: ComplianceAccess,
    private readonly tree: ComplianceTree,
    private readonly json: JsonDocuments,
    private readonly log: Log,
  ) {}

  /** Asks for user ids (and, optionally, project ids) and lists their chats in the view. */
  async showChats(): Promise<void> {
    const users = await this.prompts.input({
      title: 'Show Chats (1/2): users',
      prompt: 'The service lists chats per user: one or more user ids, separated by commas or spaces.',
      placeHolder: 'user_…, user_…',
      ignoreFocusOut: true,
      validateInput: v => (parseIds(v).length ? undefined : 'At least one user id.'),
    });
    if (users === undefined) return;
    const projects = await this.prompts.input({
      title: 'Show Chats (2/2): projects (optional)',
      prompt: 'Only chats in these projects (project ids), or leave empty for all of the users’ chats.',
      placeHolder: 'model_proj_…',
      ignoreFocusOut: true,
    });
    if (projects === undefined) return;
    await this.tree.addChatQuery(parseIds(users), parseIds(projects));
  }

  /** Asks for a project id (offering the projects of chats already listed) and lists its attachments. */
  async showProject(id?: string): Promise<void> {
    let projectId = id?.trim();
    if (!projectId) {
      const seen = [...new Set(this.tree.queries.flatMap(q => q.pager.items.map(c => c.project_id)))].filter(
        (p): p is string => typeof p === 'string' && p !== '',
      );
      const other = 'Another project…';
      const pick = seen.length
        ? await this.prompts.pick([...seen.map(label => ({ label })), { label: other }], {
            title: 'Show Project Attachments',
            placeHolder: 'A project of the chats listed, or another one',
          })
        : { label: other };
      if (!pick) return;
      projectId =
        pick.label !== other
          ? pick.label
          : (
              await this.prompts.input({
                title: 'Show Project Attachments',
                prompt: 'The project id (the spec has no list of projects to pick from).',
                placeHolder: 'model_proj_…',
                ignoreFocusOut: true,
                validateInput: v => (v.trim() ? undefined : 'A project id.'),
              })
            )?.trim();
    }
    if (projectId) await this.tree.addProject(projectId);
  }

  async removeQuery(n?: ComplianceNode): Promise<void> {
    if (n?.kind === 'query') await this.tree.remove(n.query);
    else if (n?.kind === 'project') await this.tree.remove(n.project);
  }

  async openJson(n?: ComplianceNode): Promise<void> {
    if (n?.kind === 'chat') await this.json.open(n.chat.id, n.chat);
    else if (n?.kind === 'attachment') await this.json.open(n.attachment.id, n.attachment);
    else if (n?.kind === 'org') await this.json.open(n.org.id, n.org);
  }

  // ---- deletes -----------------------------------------------------------------------------------------

  /** Deletes a chat after a modal confirmation. True when it was deleted. */
  async deleteChat(n?: ComplianceNode): Promise<boolean> {
    if (n?.kind !== 'chat') return false;
    const c = n.chat;
    const ok = await this.prompts.confirm(
      `Delete the chat "${chatName(c)}" permanently?`,
      `${c.id}${owner(c) ? ` of ${owner(c)}` : ''}. ${PERMANENT}`,
      'Delete Permanently',
    );
    return ok && this.remove('chat', c.id, async client => client.deleteChat(c.id));
  }

  /** Deletes a chat file or a project file after a modal confirmation. */
  async deleteFile(n?: ComplianceNode): Promise<boolean> {
    if (n?.kind !== 'attachment') return false;
    const a = n.attachment;
    const ok = await this.prompts.confirm(
      `Delete the file "${typeof a.name === 'string' ? a.name : a.id}" permanently?`,
      `${a.id} in project ${n.project.id}. ${PERMANENT}`,
      'Delete Permanently',
    );
    return ok && this.remove('file', a.id, async client => client.deleteFile(a.id));
  }

  /**
   * Deletes a project after a modal confirmation. While chats are attached the service answers 409 (doc3
   * §7: list its chats, delete each, then retry): the chats are found, listed in a second confirmation,
   * and deleted only if the person agrees, before the project is asked for again.
   */
  async deleteProject(n?: ComplianceNode): Promise<boolean> {
    if (n?.kind !== 'project') return false;
    const id = n.project.id;
    const ok = await this.prompts.confirm(
      `Delete the project ${id} permanently?`,
      `The project and its attachments are deleted. ${PERMANENT} The service refuses while chats are attached.`,
      'Delete Permanently',
    );
    if (!ok) return false;
    try {
      await this.deleteOne('project', id, async client => client.deleteProject(id));
      void vscode.window.showInformationMessage(`Deleted the project ${id} permanently.`);
      return true;
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 409)) {
        await this.access.showError(e, `Could not delete the project ${id}`);
        return false;
      }
      this.log.info(`project ${id}: 409 ${e.type} (${e.message}), request-id ${e.requestId ?? '?'}`);
      return this.deleteProjectWithChats(id, e);
    }
  }

  private async deleteProjectWithChats(id: string, conflict: ApiError): Promise<boolean> {
    const chats = await this.projectChats(id);
    if (chats === undefined) return false;
    if (!chats.length) {
      void this.access.showError(
        conflict,
        `The project ${id} still has chats attached, but none of the users asked about has a chat in it. List ` +
          'the chats of the users who do ("Show Chats of Users…") and delete the project again',
      );
      return false;
    }
    const listed = chats.slice(0, LISTED).map(c => `• ${chatName(c)} (${c.id}, ${owner(c) || '?'})`);
    if (chats.length > LISTED) listed.push(`… and ${count(chats.length - LISTED, 'more chat')}`);
    const action =
      chats.length === 1 ? 'Delete the Chat, Then the Project' : `Delete ${chats.length} Chats, Then the Project`;
    const agreed = await this.prompts.confirm(
      `The project ${id} still has ${count(chats.length, 'chat')} attached. Delete ${
        chats.length === 1 ? 'it' : `its ${count(chats.length, 'chat')}`
      }, then the project?`,
      `${listed.join('\n')}\n\nEach delete is immediate and permanent.`,
      action,
    );
    if (!agreed) return false;
    const deleted = await this.deleteChats(chats);
    if (deleted < chats.length) return false;
    try {
      await this.deleteOne('project', id, async client => client.deleteProject(id));
      void vscode.window.showInformationMessage(
        `Deleted ${count(deleted, 'chat')}, then the project ${id}, permanently.`,
      );
      return true;
    } catch (e) {
      const more = e instanceof ApiError && e.status === 409 ? ' It still has chats of other users.' : '';
      await this.access.showError(e, `Deleted ${count(deleted, 'chat')}; the project ${id} was not deleted.${more}`);
      return false;
    }
  }

  /** The chats of a project: asked of the service for every user known to the view (or given now). */
  private async projectChats(id: string): Promise<Chat[] | undefined> {
    let { users } = this.tree.known(id);
    if (!users.length) {
      const typed = await this.prompts.input({
        title: `Chats of project ${id}`,
        prompt:
          'The project still has chats attached, and the service lists chats per user: ' +
          'whose chats are in it? (user ids, separated by commas or spaces)',
        ignoreFocusOut: true,
        validateInput: v => (parseIds(v).length ? undefined : 'At least one user id.'),
      });
      if (typed === undefined) return undefined;
      users = parseIds(typed);
    }
    try {
      const { client } = await this.access.client();
      const found: Chat[] = [];
      for await (const page of client.chats(users, [id], { pageSize: 1000 })) found.push(...page.data);
      return found.filter(c => c.project_id === undefined || c.project_id === id);
    } catch (e) {
      await this.access.showError(e, `Could not list the chats of the project ${id}`);
      return undefined;
    }
  }

  /** Deletes chats one by one under a cancellable progress notification; returns how many were deleted. */
  private async deleteChats(chats: Chat[]): Promise<number> {
    let deleted = 0;
    const failure = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Deleting chats', cancellable: true },
      async (progress, token) => {
        for (const c of chats) {
          if (token.isCancellationRequested) return 'cancelled';
          progress.report({
            message: `${deleted + 1} of ${chats.length}: ${chatName(c)}`,
            increment: 100 / chats.length,
          });
          try {
            await this.deleteOne('chat', c.id, async client => client.deleteChat(c.id));
            deleted++;
          } catch (e) {
            return e;
          }
        }
        return undefined;
      },
    );
    if (failure === 'cancelled')
      void vscode.window.showWarningMessage(`Stopped after ${count(deleted, 'chat')}; the project was not deleted.`);
    else if (failure !== undefined)
      await this.access.showError(failure, `Deleted ${count(deleted, 'chat')} of ${chats.length}, then failed`);
    return deleted;
  }

  /** Sends one delete and takes the record out of the view; throws what the service said. */
  private async deleteOne(
    what: string,
    id: string,
    send: (client: ComplianceClient) => Promise<unknown>,
  ): Promise<void> {
    const { client } = await this.access.client();
    await send(client);
    this.log.info(`deleted ${what} ${id} (compliance)`);
    this.tree.forget(id);
  }

  /** One delete with its errors shown; true when it was deleted. */
  private async remove(
    what: string,
    id: string,
    send: (client: ComplianceClient) => Promise<unknown>,
  ): Promise<boolean> {
    try {
      await this.deleteOne(what, id, send);
      void vscode.window.showInformationMessage(`Deleted the ${what} ${id} permanently.`);
      return true;
    } catch (e) {
      await this.access.showError(e, `Could not delete the ${what} ${id}`);
      return false;
    }
  }
}

/** The user a chat belongs to, when the record says. */
function owner(c: Chat): string {
  return typeof c.user_id === 'string' ? c.user_id : '';
}

function chatName(c: Chat): string {
  return typeof c.name === 'string' && c.name ? c.name : c.id;
}
