import * as vscode from 'vscode';

/** What Promptwright last did with a file: its count, its last run, its last cases run. */
export interface FileRecord {
  tokens?: number;
  countedAt?: number;
  run?: { outcome: 'done' | 'error' | 'cancelled'; stopReason?: string | null; at: number };
  cases?: { summary: string; failed: number; at: number };
}

const KEY = 'promptwright.recent';
/** the most files remembered (the oldest go first) */
const MAX_FILES = 500;

/**
 * The last count and the last run of each request and case file, kept in the workspace state so that the
 * Prompts view shows them after a reload. Written by the token count, the runner and the cases runner.
 */
export class Recent implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly state: vscode.Memento) {}

  get(uri: vscode.Uri): FileRecord | undefined {
    return this.all()[uri.toString()];
  }

  update(uri: vscode.Uri, patch: Partial<FileRecord>): void {
    if (uri.scheme === 'untitled') return;
    const all = this.all();
    const key = uri.toString();
    const next = { ...all[key], ...patch };
    delete all[key]; // re-inserted last: the most recent at the end, the oldest dropped first
    all[key] = next;
    const keys = Object.keys(all);
    for (const k of keys.slice(0, Math.max(0, keys.length - MAX_FILES))) delete all[k];
    void this.state.update(KEY, all);
    this.changed.fire(uri);
  }

  private all(): Record<string, FileRecord> {
    return { ...this.state.get<Record<string, FileRecord>>(KEY, {}) };
  }

  dispose(): void {
    this.changed.dispose();
  }
}
