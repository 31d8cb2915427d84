import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  ApiError,
  StreamError,
  describeError,
  errorDetail,
  errorType,
  hintFor,
  type PromptwrightError,
} from '../../core/api/errors';
import type { Message } from '../../core/api/types';
import { assistantTurn, curlCommand, toolResultTurn } from '../../core/run/turns';
import type { GivenAnswer } from '../../core/tools/answers';
import type { ToolLoop } from '../../core/tools/loop';
import type { AppendResult } from '../../core/run/append';
import { EventBatcher } from '../../core/run/batcher';
import { MessageAccumulator } from '../../core/api/accumulator';
import { formatOf } from '../../core/fileNames';
import type { ErrorInfo } from '../../protocol/common';
import type { FromResponseWebview, RunView, ToolCallView, TurnView } from '../../protocol/response';
import type { Api } from '../platform/api';
import { Config, endpointOf } from '../platform/config';
import { coreBundle } from '../platform/lazy';
import { addressShown, asText, thousands } from '../../core/text';
import type { Log } from '../platform/log';
import { pricesOf } from '../platform/prices';
import type { Recent } from '../platform/recent';
import type { RequestDiagnostics } from '../request/requestDiagnostics';
import type { CaseDiagnostics } from '../cases/caseDiagnostics';
import { chooseFixtures, type FixtureSource } from './fixtures';
import type { ResponsePanel } from './responsePanel';
import { Disposable } from '../platform/lifecycle';
import { callServerTool, noServer, serverTools } from '../tools/mcpServers';

interface Run {
  view: RunView;
  uri: vscode.Uri;
  body: Record<string, unknown>;
  ctl: AbortController;
  /** the final reply, as the client's accumulator made it from every event: its usage, cost, Append Reply, Copy */
  message?: Message;
  /**
   * what has been posted to the panel so far: a page made again (hidden and shown) starts from its snapshot, and
   * the client's message would be ahead of it by what the batcher still holds, so some events would come twice
   */
  posted: MessageAccumulator;
  done: Promise<void>;
  /** the tool-use conversation this run goes on with (Continue), once a call of its reply has an answer */
  conversation?: Conversation;
  /** Continue sent this reply's answers (a second click sends nothing) */
  continued?: boolean;
}

/**
 * A tool-use conversation in the panel: the loop the cases run (core/tools/loop), its calls answered in the panel.
 * It makes each next request and keeps the turns Append Conversation writes.
 */
interface Conversation {
  loop: ToolLoop;
  /** the answers given so far (Answer…, Use Fixture), by tool_use id */
  given: Map<string, GivenAnswer>;
  /** the case file Use Fixture and Run to End answer from, once chosen */
  fixtures?: FixtureSource;
}

/** "Send Request": streams the reply of the active request file into the response panel. */
export class Runner extends Disposable {
  private run: Run | undefined;
  private nextId = 1;
  /** Run to End, while it goes: Cancel stops it between turns too */
  private toEnd: AbortController | undefined;
  /** Call MCP Server, while it waits: Cancel (or the notification's) stops it */
  private calling: vscode.CancellationTokenSource | undefined;

  constructor(
    private readonly config: Config,
    private readonly api: Api,
    private readonly diagnostics: RequestDiagnostics,
    private readonly panel: ResponsePanel,
    private readonly log: Log,
    private readonly cases: CaseDiagnostics,
    private readonly recent?: Recent,
  ) {
    super();
    this.register(panel.onMessage(m => void this.onMessage(m)));
    panel.setSnapshot(() => {
      const r = this.run;
      if (!r) return undefined;
      const message = r.message ?? r.posted.snapshot();
      return { type: 'show', view: { ...r.view, ...(message ? { message } : {}) } };
    });
    void vscode.commands.executeCommand('setContext', 'promptwright.running', false);
  }

  /** The current run (tests read it). */
  get current(): Readonly<Run> | undefined {
    return this.run;
  }

  /** Sends the request file (the active editor, or `uri`). Resolves when the run ends. */
  async send(
    uri?: vscode.Uri,
    bodyOverride?: Record<string, unknown>,
    from?: { conversation: Conversation; history: TurnView[] },
  ): Promise<void> {
    const doc = uri ? await vscode.workspace.openTextDocument(uri) : vscode.window.activeTextEditor?.document;
    const endpoint = doc && endpointOf(doc, this.config);
    if (!doc || !endpoint) {
      void vscode.window.showInformationMessage(
        'Promptwright: open a request file (*.prompt.json, *.prompt.yaml) to send it.',
      );
      return;
    }
    if (endpoint === 'count_tokens') {
      void vscode.window.showInformationMessage(
        `Promptwright: ${vscode.workspace.asRelativePath(doc.uri)} holds a count_tokens body ` +
          '(promptwright.countTokensFilePatterns): it is counted, not sent.',
      );
      return;
    }
    let body = bodyOverride;
    if (!body) {
      const st = this.diagnostics.current(doc);
      const v = st?.validation;
      const value = v?.parsed.value;
      if (!v || !value || typeof value !== 'object' || Array.isArray(value)) {
        void this.api.showError('the file does not parse; fix the syntax errors first.', 'Send Request');
        return;
      }
      const errors = v.problems.filter(p => p.severity === 'error');
      if (errors.length) {
        const pick = await vscode.window.showWarningMessage(
          `The request has ${errors.length} error${errors.length === 1 ? '' : 's'} ` +
            `(first: ${errors[0]!.message}). Send anyway?`,
          { modal: true },
          'Send Anyway',
        );
        if (pick !== 'Send Anyway') return;
      }
      body = value as Record<string, unknown>;
    }
    // no service address or key: asked for here (the offline demo first), not a failed run
    if (!(await this.api.ready('Send Request'))) return;
    // the run before this one ends (Run to End's loop, which sends this one, goes on)
    if (this.run?.view.outcome === 'running') this.run.ctl.abort();
    const runId = this.nextId++;
    const view: RunView = {
      runId,
      file: path.basename(doc.uri.path),
      model: asText(body.model),
      startedAt: Date.now(),
      outcome: 'running',
      service: addressShown(this.config.baseUrl),
      timings: {},
      ...(from ? { history: from.history } : {}),
    };
    const ctl = new AbortController();
    let resolveDone!: () => void;
    const run: Run = {
      view,
      uri: doc.uri,
      body,
      ctl,
      posted: new MessageAccumulator(),
      ...(from ? { conversation: from.conversation } : {}),
      done: new Promise<void>(r => {
        resolveDone = r;
      }),
    };
    this.run = run;
    void vscode.commands.executeCommand('setContext', 'promptwright.running', true);
    this.panel.open();
    this.panel.setTitle(`Reply · ${view.file}`);
    this.panel.post({ type: 'show', view });
    this.updateContext(run);
    const t0 = Date.now();
    let firstToken: number | undefined;
    // at most one message to the page per frame (each crosses to the webview's process), none lost; the page draws
    // once per animation frame on its side (webview/common/page.ts)
    const batcher = new EventBatcher(events => {
      for (const ev of events) run.posted.apply(ev);
      const first =
        firstToken !== undefined && view.timings.firstTokenMs === undefined
          ? (view.timings.firstTokenMs = firstToken)
          : undefined;
      this.panel.post({ type: 'events', runId, events, ...(first !== undefined ? { firstTokenMs: first } : {}) });
    });
    try {
      const client = await this.api.client();
      const stream = await client.streamMessage(body, {
        signal: ctl.signal,
        onRetry: e => {
          const error = errorInfo(e.error);
          this.panel.post({
            type: 'retry',
            runId,
            retry: { inMs: e.delayMs, attempt: e.attempt, maxAttempts: e.maxAttempts, error, at: Date.now() },
          });
        },
      });
      view.requestId = stream.requestId;
      for await (const ev of stream) {
        if (firstToken === undefined && ev.type === 'content_block_delta') firstToken = Date.now() - t0;
        batcher.push(ev);
      }
      batcher.flush();
      run.message = stream.message;
      this.finish(run, 'done', t0);
    } catch (e) {
      batcher.flush();
      const aborted =
        ctl.signal.aborted ||
        (e instanceof StreamError && e.type === 'aborted') ||
        (e as Error)?.name === 'AbortedError';
      if (e instanceof StreamError) run.message = e.partial;
      const error = errorInfo(e);
      if (!aborted) this.log.error(`run of ${view.file} failed: ${describeError(e)}${errorDetail(e)}`);
      this.finish(run, aborted ? 'cancelled' : 'error', t0, error, e instanceof StreamError);
      if (!aborted && !(e instanceof StreamError)) void this.api.showError(e, 'Send Request failed');
    } finally {
      resolveDone();
    }
  }

  private finish(
    run: Run,
    outcome: 'done' | 'error' | 'cancelled',
    t0: number,
    error?: ErrorInfo,
    midStream = false,
  ): void {
    const v = run.view;
    v.outcome = outcome;
    v.timings = { ...v.timings, totalMs: Date.now() - t0 };
    if (run.message) v.message = run.message;
    if (error) {
      v.error = error;
      v.midStream = midStream;
    }
    // what the reply cost, on the model asked for (a reply that never began cost nothing)
    if (run.message) {
      const cost = coreBundle().costOf(run.message.usage, asText(run.body.model), pricesOf(this.config, this.log));
      v.cost = cost.usd === null ? { usd: null, why: cost.why } : { usd: cost.usd };
    }
    // the page has the reply from the events it was sent: the whole message goes only to a page that got none (a
    // reply that was not streamed, or failed before its first event)
    const unsent = run.message && !run.posted.message ? run.message : undefined;
    this.panel.post({
      type: 'end',
      runId: v.runId,
      outcome,
      ...(unsent ? { message: unsent } : {}),
      ...(error ? { error, midStream } : {}),
      ...(v.requestId ? { requestId: v.requestId } : {}),
      timings: v.timings,
      ...(v.cost ? { cost: v.cost } : {}),
    });
    if (outcome === 'done' && run.message?.stop_reason === 'tool_use') {
      v.calls = run.message.content
        .filter(b => b.type === 'tool_use')
        .map(b => ({ id: String(b.id), name: String(b.name), input: b.input ?? {} }));
      if (v.calls.length) this.panel.post({ type: 'calls', runId: v.runId, calls: v.calls });
    }
    if (this.run === run) {
      void vscode.commands.executeCommand('setContext', 'promptwright.running', false);
      this.updateContext(run);
    }
    this.recent?.update(run.uri, { run: { outcome, stopReason: run.message?.stop_reason ?? null, at: Date.now() } });
  }

  cancel(): void {
    this.toEnd?.abort();
    this.calling?.cancel();
    if (this.run && this.run.view.outcome === 'running') this.run.ctl.abort();
  }

  /** What the response panel's title-bar actions can do with this run (their `when` clauses read it). */
  private updateContext(run: Run): void {
    const content = run.message?.content ?? [];
    const set = (key: string, value: boolean) => vscode.commands.executeCommand('setContext', key, value);
    void set('promptwright.replyHasContent', content.length > 0);
    void set(
      'promptwright.replyHasText',
      content.some(b => b.type === 'text'),
    );
    void set('promptwright.replyPaused', run.message?.stop_reason === 'pause_turn');
  }

  private async onMessage(m: FromResponseWebview): Promise<void> {
    if (m.type === 'open-link') await vscode.env.openExternal(vscode.Uri.parse(m.url));
    else if (m.type === 'answer') await this.answer(m.id);
    else if (m.type === 'use-fixture') await this.useFixture(m.id);
    else if (m.type === 'call-mcp') await this.callMcp(m.id);
    else if (m.type === 'continue') await this.continueRun();
    else if (m.type === 'run-to-end') await this.runToEnd();
    else if (m.type === 'append-conversation') await this.appendConversation();
  }

  /** Answer…: the text of a tool call's result, typed or read from a file the user picks. */
  async answer(id: string): Promise<void> {
    const r = this.run;
    const call = r?.view.calls?.find(c => c.id === id);
    if (!r || !call) return;
    const answer = await askAnswer(call, this.api);
    if (answer === undefined || this.run !== r) return;
    this.give(r, call, { content: answer, isError: false });
  }

  /** Use Fixture: a call answered as a case file naming the request answers it in its cells. */
  async useFixture(id: string): Promise<void> {
    const r = this.run;
    const call = r?.view.calls?.find(c => c.id === id);
    const fixtures = r && call && (await this.fixturesOf(r, 'Use Fixture'));
    if (!r || !call || !fixtures || this.run !== r) return;
    const why = await this.fromFixtures(r, [call], fixtures);
    if (why) void this.api.showError(why, 'Use Fixture');
  }

  /** Call MCP Server: the call answered by the tool of its name on a server VS Code runs (which one, when several). */
  async callMcp(id: string): Promise<void> {
    const r = this.run;
    const call = r?.view.calls?.find(c => c.id === id);
    if (!r || !call) return;
    const what = 'Call MCP Server';
    const tools = serverTools().filter(t => t.name === call.name);
    if (!tools.length) return this.api.showError(noServer(`a tool ${call.name}`), what);
    const items = tools.map(t => ({ label: t.server, tool: t }));
    const title = `Call ${call.name} on which MCP server?`;
    const tool = items.length > 1 ? (await vscode.window.showQuickPick(items, { title }))?.tool : tools[0];
    if (!tool || this.run !== r) return;
    const cts = (this.calling = new vscode.CancellationTokenSource());
    const where = { location: vscode.ProgressLocation.Notification, cancellable: true };
    try {
      const answer = await vscode.window.withProgress({ ...where, title: `${tool.server}: ${call.name}…` }, (_, t) => {
        t.onCancellationRequested(() => cts.cancel());
        return callServerTool(tool, call, cts.token);
      });
      if (this.run === r) this.give(r, call, answer, `${tool.server} (MCP)`);
    } catch (e) {
      if (!cts.token.isCancellationRequested)
        void this.api.showError(`MCP server "${tool.server}" failed on ${call.name}: ${(e as Error).message}`, what);
    } finally {
      if (this.calling === cts) this.calling = undefined;
      cts.cancel(); // a call that timed out is not left running
      cts.dispose();
    }
  }

  /** The fixtures a conversation answers from: its case file chosen once, read each time (an entry added counts). */
  private async fixturesOf(r: Run, what: string): Promise<FixtureSource | undefined> {
    const conversation = this.conversationOf(r);
    const chosen = conversation.fixtures?.label;
    conversation.fixtures = await chooseFixtures(this.cases, r.uri, this.api, what, chosen);
    return conversation.fixtures;
  }

  /** Answers calls from fixtures (first match wins, as in the cells); the first call without one says why. */
  private async fromFixtures(r: Run, calls: ToolCallView[], fixtures: FixtureSource): Promise<string | undefined> {
    const core = coreBundle();
    for (const call of calls)
      try {
        const answer = await core.answerCall(fixtures.tools, {}, call, r.ctl.signal);
        this.give(r, call, answer);
      } catch (e) {
        return `${e instanceof Error ? e.message : String(e)} in ${fixtures.label}`;
      }
    return undefined;
  }

  /** Keeps a call's answer for the next request, and shows it under the call. */
  private give(r: Run, call: ToolCallView, answer: GivenAnswer, server?: string): void {
    this.conversationOf(r).given.set(call.id, answer);
    call.answer = coreBundle().answerText(answer.content);
    call.isError = answer.isError;
    const label = answer.source && this.conversationOf(r).fixtures?.label;
    const from = server ?? (label && `${label} (${answer.source})`);
    if (from) call.from = from;
    else delete call.from;
    this.panel.post({ type: 'calls', runId: r.view.runId, calls: r.view.calls! });
  }

  private conversationOf(r: Run): Conversation {
    if (!r.conversation) {
      const given = new Map<string, GivenAnswer>();
      const loop = new (coreBundle().ToolLoop)(r.body, { given, maxTurns: Number.MAX_SAFE_INTEGER }, {});
      r.conversation = { loop, given };
    }
    return r.conversation;
  }

  /**
   * Run to End: answers each turn's calls (those not answered in the panel from the case file's fixtures) and
   * sends again, until the reply stops on anything but tool_use, the case file's max-turns, a call with no answer,
   * or Cancel.
   */
  async runToEnd(): Promise<void> {
    const first = this.run;
    if (first?.view.outcome !== 'done' || first.message?.stop_reason !== 'tool_use') return;
    const stop = (this.toEnd = new AbortController());
    try {
      const fixtures = await this.fixturesOf(first, 'Run to End');
      const conversation = first.conversation;
      if (!fixtures || !conversation || this.run !== first) return;
      const max = fixtures.tools.maxTurns;
      for (let r = this.run; !stop.signal.aborted && r?.conversation === conversation; r = this.run) {
        const m = r.message;
        if (r.view.outcome !== 'done' || m?.stop_reason !== 'tool_use' || !r.view.calls?.length) return;
        const { callLabel } = coreBundle();
        // the reply to request N: a cell ends when request max-turns still calls tools
        if (conversation.loop.turns.length + 1 >= max) {
          const asked = r.view.calls.map(callLabel).join(', ');
          void this.api.showError(
            `max-turns ${max} (${fixtures.label}) reached: the model still calls ${asked}`,
            'Run to End',
          );
          return;
        }
        const why = await this.fromFixtures(
          r,
          r.view.calls.filter(c => c.answer === undefined),
          fixtures,
        );
        if (why) {
          void this.api.showError(`${why}: answer it (Answer…) and Continue`, 'Run to End');
          return;
        }
        if (stop.signal.aborted) return;
        await this.continueTools(r, m);
        if (this.run === r) return; // nothing was sent: Continue said why
      }
    } finally {
      if (this.toEnd === stop) this.toEnd = undefined;
      // the page disabled its buttons when Run to End was clicked: where it stopped, they are back
      const r = this.run;
      if (r?.view.calls) this.panel.post({ type: 'calls', runId: r.view.runId, calls: r.view.calls });
    }
  }

  async rerun(): Promise<void> {
    if (!this.run) return this.send();
    return this.send(this.run.uri);
  }

  /**
   * pause_turn: send the conversation with the paused reply appended as-is (doc1 §2.7). tool_use: send it with the
   * reply and a user turn of the answers given to its calls, streaming the next turn below this one.
   */
  async continueRun(): Promise<void> {
    const r = this.run;
    if (r?.message?.stop_reason === 'tool_use' && r.view.calls?.length) return this.continueTools(r, r.message);
    if (!r?.message || r.message.stop_reason !== 'pause_turn') {
      void vscode.window.showInformationMessage(
        'Promptwright: "Continue" applies to a reply that stopped with pause_turn or tool_use.',
      );
      return;
    }
    const messages = [
      ...(r.body.messages as unknown[]),
      { role: 'assistant', content: r.message.content.map(({ partial_json: _p, ...b }) => b) },
    ];
    return this.send(r.uri, { ...r.body, messages });
  }

  private async continueTools(r: Run, message: Message): Promise<void> {
    const calls = r.view.calls ?? [];
    const unanswered = calls.filter(c => c.answer === undefined).map(c => c.name);
    if (unanswered.length) {
      void vscode.window.showInformationMessage(`Promptwright: answer ${unanswered.join(', ')} first (Answer…).`);
      return;
    }
    if (r.continued) return;
    r.continued = true;
    const conversation = this.conversationOf(r);
    const reply = { message, usage: message.usage, stopReason: message.stop_reason, requestId: r.view.requestId };
    const step = await conversation.loop.advance(reply, r.ctl.signal);
    if (step.kind !== 'continue') {
      const why = step.kind === 'error' ? step.error.message : step.kind === 'limit' ? step.message : 'nothing to send';
      void this.api.showError(why, 'Continue');
      return;
    }
    const history = [...(r.view.history ?? []), { message, calls, ...(r.view.cost ? { cost: r.view.cost } : {}) }];
    return this.send(r.uri, conversation.loop.body, { conversation, history });
  }

  /**
   * Append Conversation: every turn of the tool-use conversation so far (each reply and the answers given to its
   * calls, then the last reply) at the end of the request file's messages, as one undoable edit.
   */
  async appendConversation(): Promise<boolean> {
    const r = this.run;
    // a turn cancelled before its first event leaves the earlier ones
    const m = r?.message?.content.length ? r.message : undefined;
    const turns = [...((r?.conversation?.loop.state().added ?? []) as object[]), ...(m ? [assistantTurn(m)] : [])];
    if (!r || !turns.length) {
      void vscode.window.showInformationMessage('Promptwright: there is no reply to append.');
      return false;
    }
    const results = m?.stop_reason === 'tool_use' ? toolResultTurn(m) : undefined;
    if (results) {
      const answers = r.conversation?.given;
      const content = results.content.map(b => {
        const a = answers?.get(String(b.tool_use_id));
        return a ? { ...b, content: a.content, ...(a.isError ? { is_error: true } : {}) } : b;
      });
      turns.push({ ...results, content });
    }
    const doc = await vscode.workspace.openTextDocument(r.uri);
    let edit;
    try {
      edit = coreBundle().appendItems(doc.getText(), formatOf(doc.fileName), 'messages', turns);
    } catch (e) {
      void this.api.showError(e, 'Append Conversation');
      return false;
    }
    if (!(await appendToFile(doc, { edit }))) return false;
    this.panel.post({
      type: 'flash',
      text: `Appended ${turns.length} turns to ${vscode.workspace.asRelativePath(doc.uri)} (Undo takes them out).`,
    });
    return true;
  }

  async copyText(): Promise<void> {
    const text =
      this.run?.message?.content
        .filter(b => b.type === 'text')
        .map(b => asText(b.text))
        .join('\n\n') ?? '';
    await vscode.env.clipboard.writeText(text);
    this.panel.post({ type: 'flash', text: 'Copied the reply text.' });
  }

  async copyCurl(): Promise<void> {
    if (!this.run) return;
    await vscode.env.clipboard.writeText(
      curlCommand(this.config.baseUrl, this.config.apiVersion, this.config.betas, this.run.body),
    );
    this.panel.post({ type: 'flash', text: 'Copied a curl command (the key is $PROMPTWRIGHT_API_KEY).' });
  }

  /** Appends the reply to the request file as one undoable edit; after tool_use, tool_result stubs too. */
  async append(): Promise<boolean> {
    const r = this.run;
    if (!r?.message || !r.message.content.length) {
      void vscode.window.showInformationMessage('Promptwright: there is no reply to append.');
      return false;
    }
    const doc = await vscode.workspace.openTextDocument(r.uri);
    let result;
    try {
      result = coreBundle().appendReply(doc.getText(), formatOf(doc.fileName), r.message);
    } catch (e) {
      void this.api.showError(e, 'Append Reply to File');
      return false;
    }
    return appendToFile(doc, result);
  }

  /** Saves request, response, usage and timings as JSON beside the file or in the configured folder. */
  async saveTranscript(): Promise<vscode.Uri | undefined> {
    const r = this.run;
    if (!r) return undefined;
    const folderSetting = this.config.transcriptFolder;
    const ws = vscode.workspace.getWorkspaceFolder(r.uri);
    const dir = folderSetting
      ? path.isAbsolute(folderSetting)
        ? vscode.Uri.file(folderSetting)
        : vscode.Uri.joinPath(ws?.uri ?? vscode.Uri.joinPath(r.uri, '..'), folderSetting)
      : vscode.Uri.joinPath(r.uri, '..');
    const stamp = new Date(r.view.startedAt).toISOString().replace(/[:.]/g, '-');
    const base = path.basename(r.uri.path).replace(/\.prompt\.(json|ya?ml)$/i, '');
    const target = vscode.Uri.joinPath(dir, `${base}.${stamp}.transcript.json`);
    const transcript = {
      file: path.basename(r.uri.path),
      savedAt: new Date().toISOString(),
      startedAt: new Date(r.view.startedAt).toISOString(),
      outcome: r.view.outcome,
      requestId: r.view.requestId ?? null,
      timings: r.view.timings,
      request: r.body,
      response: r.message ? { ...r.message, content: assistantTurn(r.message).content } : null,
      usage: r.message?.usage ?? null,
      error: r.view.error ?? null,
    };
    await vscode.workspace.fs.createDirectory(dir);
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(`${JSON.stringify(transcript, null, 2)}\n`));
    this.panel.post({ type: 'flash', text: `Saved ${vscode.workspace.asRelativePath(target)}` });
    return target;
  }

  override dispose(): void {
    this.cancel();
    super.dispose();
  }
}

/** Applies an append as one undoable edit and shows it in the file's editor (the cursor where it says). */
async function appendToFile(doc: vscode.TextDocument, result: AppendResult): Promise<boolean> {
  const edit = new vscode.WorkspaceEdit();
  edit.replace(
    doc.uri,
    new vscode.Range(doc.positionAt(result.edit.start), doc.positionAt(result.edit.end)),
    result.edit.newText,
  );
  if (!(await vscode.workspace.applyEdit(edit))) return false;
  const editor = await vscode.window.showTextDocument(doc, {
    viewColumn: vscode.window.visibleTextEditors.find(e => e.document === doc)?.viewColumn ?? vscode.ViewColumn.One,
  });
  if (result.cursor) {
    const sel = new vscode.Selection(doc.positionAt(result.cursor.start), doc.positionAt(result.cursor.end));
    editor.selection = sel;
    editor.revealRange(sel);
  } else {
    const end = doc.positionAt(result.edit.start + result.edit.newText.length);
    editor.revealRange(new vscode.Range(end, end));
  }
  return true;
}

/** A tool call's answer: typed in an input box, or the text of a workspace file picked from a list. */
async function askAnswer(call: ToolCallView, api: Api): Promise<string | undefined> {
  const type = { label: '$(edit) Type the answer…', alwaysShow: true };
  const files = vscode.workspace
    .findFiles('**/*', '**/{node_modules,.git}/**', 2000)
    .then(uris => [
      type,
      { label: 'Files', kind: vscode.QuickPickItemKind.Separator },
      ...uris.map(uri => ({ label: vscode.workspace.asRelativePath(uri), uri })),
    ]);
  const { callLabel, MAX_ANSWER_CHARS } = coreBundle();
  const title = `Answer ${callLabel(call)}`;
  const pick = await vscode.window.showQuickPick<vscode.QuickPickItem & { uri?: vscode.Uri }>(files, {
    title,
    placeHolder: 'Type the answer, or pick a file whose text is the answer',
    matchOnDescription: true,
  });
  if (!pick) return undefined;
  if (!pick.uri)
    return vscode.window.showInputBox({
      title,
      prompt: 'The text of the tool_result the model reads',
      ...(call.answer !== undefined ? { value: call.answer } : {}),
      ignoreFocusOut: true,
      validateInput: v =>
        v.trim() ? undefined : 'Type what the tool returned (an empty answer tells the model nothing).',
    });
  // a file too large to send is not read whole
  const { size } = await vscode.workspace.fs.stat(pick.uri);
  const text =
    size > MAX_ANSWER_CHARS * 4 ? '' : new TextDecoder().decode(await vscode.workspace.fs.readFile(pick.uri));
  if (text && text.length <= MAX_ANSWER_CHARS) return text;
  void api.showError(
    `${pick.label} is empty or over the ${thousands(MAX_ANSWER_CHARS)} characters a tool answer may hold`,
    'Answer',
  );
  return undefined;
}

function errorInfo(e: unknown): ErrorInfo {
  if (e instanceof ApiError) {
    const hint = hintFor(e);
    return {
      type: e.type,
      message: e.message,
      status: e.status,
      ...(e.requestId ? { requestId: e.requestId } : {}),
      ...(hint ? { hint } : {}),
    };
  }
  if (e instanceof StreamError)
    return { type: e.type, message: e.message, ...(e.requestId ? { requestId: e.requestId } : {}) };
  const err = e as PromptwrightError;
  return { type: errorType(e), message: err?.message ?? String(e) };
}
