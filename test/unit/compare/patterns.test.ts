// `--changed` picks files by the editor's own defaults: the request, count and case file patterns of
// package.json, so a file the editor treats as a prompt is one the CLI compares.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { COMPARED_FILE_PATTERNS, isComparedFile } from '../../../src/cli/baseFiles';
import { CASE_FILE_GLOB } from '../../../src/core/fileNames';

describe('compare: the files --changed looks at', () => {
  it('are the editor’s default request, count and case file patterns', () => {
    const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as {
      contributes: { configuration: { properties: Record<string, { default: unknown }> } };
    };
    const settings = pkg.contributes.configuration.properties;
    const [, prefix, alternatives] = /^(.*)\{(.*)\}$/.exec(CASE_FILE_GLOB)!;
    const cases = alternatives!.split(',').map(ext => `${prefix}${ext}`);
    assert.deepEqual(
      [...COMPARED_FILE_PATTERNS].sort(),
      [
        ...(settings['promptwright.requestFilePatterns']!.default as string[]),
        ...(settings['promptwright.countTokensFilePatterns']!.default as string[]),
        ...cases,
      ].sort(),
    );
  });

  it('match request, count and case files in any folder, and nothing else', () => {
    for (const yes of ['a.prompt.json', 'deep/er/b.prompt.yml', 'c.count.yaml', 'x/d.cases.json'])
      assert.ok(isComparedFile(yes), yes);
    for (const no of ['a.json', 'README.md', 'prompt.json', 'a.prompt.json.bak', 'a.cases.txt'])
      assert.ok(!isComparedFile(no), no);
  });
});
