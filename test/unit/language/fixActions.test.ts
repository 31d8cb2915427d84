import * as assert from 'node:assert/strict';
import { caseFixActions, fixActions, problemAt } from '../../../src/core/language/fixActions';
import { applyEdits } from '../../../src/core/request/fixes';
import { validateText } from '../../../src/core/request/validate';

describe('quick fixes, as both front ends offer them', () => {
  it("a problem's fixes as edits of the text; the clearly right one, or the only one, preferred", () => {
    const text =
      '{\n  "model": "model-sonnet-4-6",\n  "max_tokens": 5,\n  "messages": [{ "role": "usr", "content": "Hi" }]\n}\n';
    const v = validateText(text, 'json');
    const role = v.problems.find(p => p.code === 'invalid-value')!;
    const actions = fixActions(text, 'json', v.parsed, role.fixes!);
    const change = actions.find(a => a.title === "Change to 'user'")!;
    assert.ok('edits' in change && change.preferred);
    assert.equal(applyEdits(text, change.edits), text.replace('"usr"', '"user"'));
  });

  it('a beta is not an edit of the file: the value to add to the setting', () => {
    const actions = fixActions('{}', 'json', validateText('{}', 'json').parsed, [
      { kind: 'add-beta', title: 'Add beta x', beta: 'x-2026-01-01' },
    ]);
    assert.deepEqual(actions, [{ title: 'Add beta x', preferred: true, beta: 'x-2026-01-01' }]);
  });

  it('finds the problem a diagnostic stands for by its range and message', () => {
    const p = { start: 3, end: 7, severity: 'error' as const, code: 'invalid-value' as const, message: 'm', path: [] };
    assert.equal(problemAt([p], { start: 3, end: 7, message: 'm' }), p);
    assert.equal(problemAt([p], { start: 3, end: 8, message: 'm' }), undefined);
    assert.equal(problemAt([p], { start: 3, end: 7, message: 'other' }), undefined);
  });

  it("a case file's fixes: its file read again, the problem at the diagnostic's range", () => {
    const text = 'request: a.prompt.yaml\ncases:\n  - name: a\n    assert:\n      - contians: x\n';
    const start = text.indexOf('contians');
    const message = 'Unknown assertion "contians". Did you mean "contains"?';
    const [rename] = caseFixActions(text, 'yaml', { start, end: start + 8, message });
    assert.ok(rename && 'edits' in rename, JSON.stringify(rename));
    assert.equal(applyEdits(text, rename.edits), text.replace('contians', 'contains'));
    assert.deepEqual(caseFixActions(text, 'yaml', { start: 0, end: 1, message }), []);
  });
});
