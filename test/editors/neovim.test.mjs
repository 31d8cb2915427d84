// The language server in a real editor other than VS Code: Debian's Neovim (0.7 or newer; the harness installs
// it with chromium, test/harness/vscode.mjs), headless, with its built-in LSP client and nothing else
// (`-u NONE`). neovim.lua opens a defective request file and a YAML case file; this judges what Neovim shows:
// the diagnostics (as `promptwright check --format json` gives them), a completion list, a hover, and a code
// action applied to the buffer.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NEOVIM } from '../harness/vscode.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');

const REQUEST = `{
  "model": "model-sonnet-4-6",
  "max_tokens": 1024,
  "temprature": 0.5,
  "messages": [{ "role": "usr", "content": "{{question}} ({{tone}})" }]
}
`;
const PROMPT =
  'model: model-sonnet-4-6\nmax_tokens: 400\nmessages:\n  - role: user\n    content: "{{question}} {{tone}}"\n';
const CASES = `request: support.prompt.yaml
cases:
  - name: greeting
    vars:
      question: Are you open on Sunday?
${'      '}
    assert:
      - contians: Sunday
      - stop_reason: end_trun
`;

/** Runs Neovim on neovim.lua in `dir`; resolves with what it wrote. */
async function runNeovim(dir) {
  const results = path.join(dir, 'results.json');
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-nvim-home-'));
  const child = spawn(
    NEOVIM,
    ['--headless', '-u', 'NONE', '-i', 'NONE', '-n', '-c', `luafile ${path.join(HERE, 'neovim.lua')}`],
    {
      cwd: dir,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        XDG_CONFIG_HOME: home,
        XDG_DATA_HOME: home,
        XDG_STATE_HOME: home,
        XDG_CACHE_HOME: home,
        PW_NODE: process.execPath,
        PW_CLI: CLI,
        PW_DIR: dir,
        PW_OUT: results,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', d => (output += d));
  child.stderr.on('data', d => (output += d));
  const killer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  const code = await new Promise(resolve => child.on('exit', resolve));
  clearTimeout(killer);
  fs.rmSync(home, { recursive: true, force: true });
  assert.ok(fs.existsSync(results), `Neovim wrote no results (exit ${code})\n${output}`);
  return JSON.parse(fs.readFileSync(results, 'utf8'));
}

/** `check --format json` of one file, as Neovim keeps diagnostics: 0-based, severity 1 = error. */
function checked(dir, name) {
  const r = spawnSync(process.execPath, [CLI, 'check', '--format', 'json', name], { cwd: dir, encoding: 'utf8' });
  const severity = { error: 1, warning: 2, info: 3, hint: 4 };
  return JSON.parse(r.stdout)
    .filter(x => x.file === name)
    .map(x => ({
      lnum: x.line - 1,
      col: x.column - 1,
      end_lnum: x.endLine - 1,
      end_col: x.endColumn - 1,
      severity: severity[x.severity],
      code: x.code,
      source: 'Promptwright',
      message: x.message,
    }));
}

const key = d => `${String(d.lnum).padStart(4)}:${String(d.col).padStart(4)} ${d.code} ${d.message}`;
const sorted = list => [...list].sort((a, b) => key(a).localeCompare(key(b)));

describe('Neovim (its built-in LSP client) with promptwright lsp --stdio', function () {
  this.timeout(120_000);
  let dir;
  let seen;

  before(async () => {
    assert.ok(fs.existsSync(CLI), 'dist/cli.js is built (node esbuild.mjs)');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-nvim-'));
    fs.writeFileSync(path.join(dir, 'defective.prompt.json'), REQUEST);
    fs.writeFileSync(path.join(dir, 'support.prompt.yaml'), PROMPT);
    fs.writeFileSync(path.join(dir, 'support.cases.yaml'), CASES);
    seen = await runNeovim(dir);
    assert.equal(seen.error, undefined, seen.error);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('shows the diagnostics of a request file and of a YAML case file as check --format json gives them', () => {
    assert.ok(seen.nvim.major > 0 || seen.nvim.minor >= 7, JSON.stringify(seen.nvim));
    assert.deepEqual(sorted(seen.request.diagnostics), sorted(checked(dir, 'defective.prompt.json')));
    assert.deepEqual(sorted(seen.cases.diagnostics), sorted(checked(dir, 'support.cases.yaml')));
    const codes = list => list.map(d => d.code).sort();
    assert.deepEqual(codes(seen.request.diagnostics), ['invalid-value', 'unknown-field']);
    assert.deepEqual(codes(seen.cases.diagnostics), [
      'undefined-placeholder',
      'unknown-assertion',
      'unknown-stop-reason',
    ]);
  });

  it('completes the model ids with their facts, and a case’s vars with the request’s placeholders', () => {
    const sonnet = seen.request.completion.find(i => i.label === 'model-sonnet-4-6');
    assert.ok(sonnet, seen.request.completion.map(i => i.label).join(', '));
    assert.match(sonnet.documentation, /Context window: \*\*[\d,]+\*\* tokens/);
    assert.equal(sonnet.newText, '"model-sonnet-4-6"');
    assert.deepEqual(
      seen.cases.completion.map(i => i.label),
      ['tone'],
    );
  });

  it('shows a hover with the field’s description', () => {
    const text = seen.request.hover.join('\n');
    assert.match(text, /max_tokens/);
    assert.match(text, /output tokens|tokens to generate|maximum/i);
  });

  it('applies a quick fix to the buffer: the role, and the assertion kind of the case file', () => {
    assert.ok(seen.request.fix.offered.includes("Change to 'user'"), seen.request.fix.offered.join(', '));
    assert.equal(seen.request.fix.lines.join('\n') + '\n', REQUEST.replace('"usr"', '"user"'));
    assert.equal(seen.cases.fix.lines.join('\n') + '\n', CASES.replace('contians', 'contains'));
  });
});
