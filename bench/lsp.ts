// The language server (npm run bench): `promptwright lsp --stdio` as a process, spoken to over pipes as an
// editor does. Its diagnostics after a one-character edit of a 1 MB request, against `check` of the same text in
// process (the least work that gives the same diagnostics: the rest is the protocol and the pipe); its memory over
// 1,000 such edits; and how long from its start to its first diagnostics, against `check` as a process.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { requestDiagnostics } from '../src/core/language/diagnostics';
import { toRecords } from '../src/core/request/records';
import { LspClient } from '../test/support/lspClient';
import { ratioAsync, type Figure } from './bench';

const MB = 1024 * 1024;

/** A request of about `bytes` bytes: a long conversation of short turns, with a system prompt and a tool. */
function bigRequest(bytes: number): object {
  const messages: object[] = [];
  for (let i = 0, size = 0; size < bytes; i++) {
    const m = {
      role: i % 2 ? 'assistant' : 'user',
      content: `Turn ${i}: the quick brown fox jumps over the lazy dog.`,
    };
    messages.push(m);
    size += JSON.stringify(m).length + 6;
  }
  if (messages.length % 2 === 0) messages.push({ role: 'user', content: 'last' });
  else messages.push({ role: 'assistant', content: 'ok' }, { role: 'user', content: 'last' });
  return {
    model: 'model-opus-4-7',
    max_tokens: 4096,
    system: 'You are terse.',
    tools: [{ name: 'search', input_schema: { type: 'object', properties: { q: { type: 'string' } } } }],
    messages,
  };
}

/** The server's resident memory, from /proc (Linux; undefined elsewhere). */
function rssOf(pid: number | undefined): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

export async function lspBench(figs: Figure[]): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-bench-lsp-'));
  const file = path.join(dir, 'big.prompt.json');
  const text = JSON.stringify(bigRequest(MB), null, 2);
  fs.writeFileSync(file, text);
  // the edit: one character of the last message's text, back and forth
  const at = text.lastIndexOf('last');
  const before = text.slice(0, at).split('\n');
  const position = { line: before.length - 1, character: before.at(-1)!.length };
  const texts = [text.slice(0, at) + 'L' + text.slice(at + 1), text];
  let version = 1;
  const client = new LspClient();
  try {
    await client.initialize(dir, { promptwright: { validation: { debounceMs: 0 } } });
    const uri = client.open(file, text, version);
    await client.published(uri, { version });
    const edit = async () => {
      const next = texts[version % 2]!;
      version++;
      const n = client.notifications.length;
      client.notify('textDocument/didChange', {
        textDocument: { uri, version },
        contentChanges: [
          { range: { start: position, end: { ...position, character: position.character + 1 } }, text: next[at] },
        ],
      });
      await client.published(uri, { version, after: n });
      // the client keeps what it was told: only the last one is needed
      client.notifications.length = 0;
    };
    let n = 0;
    figs.push(
      await ratioAsync(
        'server: diagnostics of 1 MB after a 1-character edit',
        {
          name: 'check in process',
          run: () => {
            const t = texts[n++ % 2]!;
            // what check does with a file's text: the diagnostics every front end gives, without a key
            const problems = requestDiagnostics(t, file, { endpoint: 'messages', betas: [] });
            return Promise.resolve(toRecords(t, problems, file));
          },
        },
        { name: 'the server', run: edit },
        1.3,
        31,
      ),
    );
    const rss: number[] = [];
    for (let i = 1; i <= 1000; i++) {
      await edit();
      if (i === 100 || i === 1000) rss.push(rssOf(client.child.pid) ?? NaN);
    }
    const growth = rss[1]! / rss[0]!;
    figs.push({
      name: 'server: memory after 1,000 edits vs after 100',
      value: Number.isNaN(growth) ? 'n/a' : `${growth.toFixed(2)}x`,
      extra: `resident ${(rss[0]! / MB).toFixed(0)} MB after 100 edits, ${(rss[1]! / MB).toFixed(0)} MB after 1,000`,
      target: '<= 1.25x (flat)',
      ok: !(growth > 1.25),
    });
    await client.stop();

    // from the process's start to the first diagnostics of the file, against check of it as a process
    const startToFirst = async () => {
      const c = new LspClient();
      try {
        await c.initialize(dir, { promptwright: { validation: { debounceMs: 0 } } });
        await c.published(c.open(file, text));
      } finally {
        await c.stop();
      }
    };
    const checkProcess = () =>
      new Promise<void>((resolve, reject) => {
        const p = spawn(process.execPath, [path.resolve('dist/cli.js'), 'check', file], { stdio: 'ignore' });
        p.on('exit', code => (code === 0 || code === 1 ? resolve() : reject(new Error(`check exited ${code}`))));
      });
    figs.push(
      await ratioAsync(
        'server: start to first diagnostics (1 MB file)',
        { name: 'check as a process', run: checkProcess },
        { name: 'the server', run: startToFirst },
        1.5,
        11,
      ),
    );
  } finally {
    client.child.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
