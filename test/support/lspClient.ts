// A small LSP client for the whole-process tests: `promptwright lsp --stdio` spawned from the built CLI, spoken
// to over pipes with the protocol's framing (Content-Length headers, JSON-RPC 2.0). It answers the server's own
// requests (configuration, refresh, registration), keeps every notification, and lets a test wait for one.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

type Json = Record<string, unknown>;

export interface Published {
  uri: string;
  version?: number;
  diagnostics: {
    range: { start: { line: number; character: number }; end: { line: number; character: number } };
    severity: number;
    code: string;
    codeDescription?: { href: string };
    source: string;
    message: string;
  }[];
}

export class LspClient {
  readonly child: ChildProcessWithoutNullStreams;
  private buffer = Buffer.alloc(0);
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  readonly notifications: { method: string; params: Json }[] = [];
  private readonly waiters: { test: (n: { method: string; params: Json }) => boolean; resolve: () => void }[] = [];
  /** what the server asked the client for (workspace/configuration …), by method */
  readonly asked: { method: string; params: unknown }[] = [];
  /** the answer to workspace/configuration */
  configuration: unknown = null;
  stderr = '';
  readonly exited: Promise<number | null>;

  /** `cli`: the CLI to start (default the repository's dist/cli.js; an installed `promptwright` runs as itself) */
  constructor(env: NodeJS.ProcessEnv = {}, args = ['lsp', '--stdio'], cli = path.resolve('dist/cli.js')) {
    const [command, argv] = cli.endsWith('.js') ? [process.execPath, [cli, ...args]] : [cli, args];
    this.child = spawn(command, argv, {
      env: { PATH: process.env.PATH, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stdout.on('data', (d: Buffer) => this.read(d));
    this.child.stderr.on('data', (d: Buffer) => (this.stderr += String(d)));
    this.exited = new Promise(resolve => this.child.on('exit', resolve));
  }

  private read(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.subarray(0, end).toString())?.[1]);
      if (this.buffer.length < end + 4 + length) return;
      const body = JSON.parse(this.buffer.subarray(end + 4, end + 4 + length).toString('utf8')) as Json;
      this.buffer = this.buffer.subarray(end + 4 + length);
      this.dispatch(body);
    }
  }

  private dispatch(m: Json): void {
    if (typeof m.method === 'string' && m.id !== undefined) {
      // a request from the server
      this.asked.push({ method: m.method, params: m.params });
      const result = m.method === 'workspace/configuration' ? [this.configuration] : null;
      this.write({ jsonrpc: '2.0', id: m.id, result });
    } else if (typeof m.method === 'string') {
      const n = { method: m.method, params: m.params as Json };
      this.notifications.push(n);
      for (const w of [...this.waiters])
        if (w.test(n)) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.resolve();
        }
    } else {
      const p = this.pending.get(m.id as number);
      this.pending.delete(m.id as number);
      if (m.error)
        p?.reject(Object.assign(new Error((m.error as Json).message as string), { code: (m.error as Json).code }));
      else p?.resolve(m.result);
    }
  }

  private write(m: Json): void {
    const body = Buffer.from(JSON.stringify(m), 'utf8');
    this.child.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.child.stdin.write(body);
  }

  request<T = unknown>(method: string, params: unknown): Promise<T> & { id: number } {
    const id = this.nextId++;
    const p = new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: v => resolve(v as T), reject });
      this.write({ jsonrpc: '2.0', id, method, params });
    });
    return Object.assign(p, { id });
  }

  /**
   * A request and its cancellation in one write, so the server reads both before it answers: the way to see that it
   * answers a cancelled request as cancelled, whatever the machine's speed.
   */
  requestCancelled<T = unknown>(method: string, params: unknown): Promise<T> {
    const id = this.nextId++;
    const frame = (m: Json) => {
      const body = Buffer.from(JSON.stringify(m), 'utf8');
      return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]);
    };
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: v => resolve(v as T), reject });
      this.child.stdin.write(
        Buffer.concat([
          frame({ jsonrpc: '2.0', id, method, params }),
          frame({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id } }),
        ]),
      );
    });
  }

  notify(method: string, params: unknown): void {
    this.write({ jsonrpc: '2.0', method, params });
  }

  /** Resolves with the first notification (already received or to come) that passes `test`. */
  waitFor(test: (n: { method: string; params: Json }) => boolean, what: string, ms = 15_000): Promise<void> {
    if (this.notifications.some(test)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}\n${this.stderr}`)), ms);
      this.waiters.push({
        test,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  /** The last diagnostics published for a document. */
  diagnostics(uri: string): Published | undefined {
    const all = this.notifications.filter(n => n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri);
    return all.at(-1)?.params as unknown as Published | undefined;
  }

  /** Waits until diagnostics for `uri` are published after `after` notifications (for `version`, if given). */
  async published(uri: string, o: { after?: number; version?: number } = {}): Promise<Published> {
    const after = o.after ?? 0;
    const test = (n: { method: string; params: Json }) =>
      n.method === 'textDocument/publishDiagnostics' &&
      n.params.uri === uri &&
      (o.version === undefined || n.params.version === o.version);
    const seen = () => this.notifications.slice(after).filter(test).at(-1);
    if (!seen()) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no diagnostics for ${uri}\n${this.stderr}`)), 20_000);
        this.waiters.push({
          test: n => this.notifications.indexOf(n) >= after && test(n),
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    }
    return seen()!.params as unknown as Published;
  }

  async initialize(rootDir: string, initializationOptions: unknown = {}, capabilities: Json = {}): Promise<Json> {
    const result = await this.request<Json>('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(rootDir).href,
      workspaceFolders: [{ uri: pathToFileURL(rootDir).href, name: path.basename(rootDir) }],
      capabilities,
      initializationOptions,
    });
    this.notify('initialized', {});
    return result;
  }

  open(file: string, text: string, version = 1): string {
    const uri = pathToFileURL(file).href;
    const languageId = /\.ya?ml$/i.test(file) ? 'yaml' : 'json';
    this.notify('textDocument/didOpen', { textDocument: { uri, languageId, version, text } });
    return uri;
  }

  /** Ends the server as a client does (shutdown, then exit); resolves with its exit code. */
  async stop(): Promise<number | null> {
    if (this.child.exitCode === null) {
      await this.request('shutdown', null).catch(() => undefined);
      this.notify('exit', null);
    }
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    const code = await this.exited;
    clearTimeout(timer);
    return code;
  }
}
