import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findMcpJson, parseMcpJson, substitute } from '../../../src/core/tools/mcpConfig';
import { mcpResultContent } from '../../../src/core/tools/mcpPool';

describe('MCP configuration', () => {
  it('reads VS Code’s mcp.json (comments, trailing commas): stdio and http servers, type inferred', () => {
    const text = [
      '{',
      '  // ours',
      '  "servers": {',
      '    "docs": { "type": "stdio", "command": "node", "args": ["s.js"], "env": { "K": "${env:HOME}" } },',
      '    "web": { "url": "https://mcp.example/mcp", "headers": { "Authorization": "Bearer ${env:TOKEN}" } },',
      '    "bad": { "type": "stdio" },',
      '  },',
      '}',
    ].join('\n');
    const c = parseMcpJson(text, '.vscode/mcp.json');
    assert.deepEqual(c.servers, {
      docs: { type: 'stdio', command: 'node', args: ['s.js'], env: { K: '${env:HOME}' } },
      web: { type: 'http', url: 'https://mcp.example/mcp', headers: { Authorization: 'Bearer ${env:TOKEN}' } },
    });
    assert.deepEqual(
      c.problems.map(p => [p.line, p.column, p.message]),
      [[6, 5, 'server "bad": a stdio server needs "command" (text)']],
    );
  });

  it('a syntax error is an error at its line', () => {
    const c = parseMcpJson('{\n  "servers": {\n    "a": { "command": "x" }\n    "b": {}\n  }\n}', 'm.json');
    assert.deepEqual(
      c.problems.map(p => [p.file, p.line, p.column, p.code]),
      [['m.json', 4, 5, 'mcp-config']],
    );
  });

  it('substitutes ${env:NAME} (empty when unset) and ${workspaceFolder}', () => {
    const s = substitute(
      {
        type: 'stdio',
        command: '${workspaceFolder}/bin/s',
        args: ['--key=${env:KEY}', '${env:NOPE}x'],
        cwd: '${workspaceFolder}',
      },
      { env: { KEY: 'k1' }, workspaceFolder: '/w' },
    );
    assert.deepEqual(s, { type: 'stdio', command: '/w/bin/s', args: ['--key=k1', 'x'], cwd: '/w' });
  });

  it('finds .vscode/mcp.json from a folder up to the git root, not beyond', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-mcpjson-'));
    try {
      fs.mkdirSync(path.join(root, 'repo', '.git'), { recursive: true });
      fs.mkdirSync(path.join(root, 'repo', 'suite', 'deep'), { recursive: true });
      fs.mkdirSync(path.join(root, '.vscode'));
      fs.writeFileSync(path.join(root, '.vscode', 'mcp.json'), '{}');
      assert.equal(findMcpJson(path.join(root, 'repo', 'suite', 'deep')), undefined, 'above the git root');
      fs.mkdirSync(path.join(root, 'repo', '.vscode'));
      fs.writeFileSync(path.join(root, 'repo', '.vscode', 'mcp.json'), '{}');
      assert.equal(
        findMcpJson(path.join(root, 'repo', 'suite', 'deep')),
        path.join(root, 'repo', '.vscode', 'mcp.json'),
      );
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('an MCP result: text as text blocks, images as image blocks, isError as is_error, the rest named', () => {
    assert.deepEqual(
      mcpResultContent({
        content: [
          { type: 'text', text: 'hi' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
          { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
          { type: 'resource', resource: { uri: 'file:///a', text: 'body' } },
        ],
        isError: true,
      }),
      {
        content: [
          { type: 'text', text: 'hi' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
          { type: 'text', text: '[audio audio/wav]' },
          { type: 'text', text: 'body' },
        ],
        isError: true,
      },
    );
    assert.deepEqual(mcpResultContent({ content: [], structuredContent: { a: 1 } }), {
      content: [{ type: 'text', text: '{"a":1}' }],
      isError: false,
    });
  });
});
