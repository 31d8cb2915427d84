// What both editors keep of a workspace (core/language/workspace.ts): the pause before a check, the case index.
import * as assert from 'node:assert/strict';
import { CaseIndex, checkDelay } from '../../../src/core/language/workspace';

describe('checkDelay: the pause before a file is checked, in both editors', () => {
  it('is the setting for a small file, a millisecond more per 20,000 characters, at most a second more', () => {
    const settings = { validationDebounceMs: 250 };
    assert.equal(checkDelay(settings, 1_000), 250);
    assert.equal(checkDelay(settings, 200_000), 260);
    assert.equal(checkDelay(settings, 50_000_000), 1250);
  });
  it('is no pause at all when the setting is 0, whatever the size', () => {
    assert.equal(checkDelay({ validationDebounceMs: 0 }, 50_000_000), 0);
  });
});

describe('CaseIndex: which case files read which files, in both editors', () => {
  /** A case file's check as a front end keeps it: the files it names, by URI. */
  interface Checked {
    request?: string;
    judge?: string;
    dataset?: string;
  }
  const index = () =>
    new CaseIndex<string, Checked>(
      uri => uri,
      c => ({ request: c.request, files: [c.request, c.judge, c.dataset] }),
    );

  it('finds the case files naming a request file, and the case files reading a file in any role', () => {
    const cases = index();
    cases.set('a.cases.yaml', { request: 'p.prompt.yaml', dataset: 'rows.csv' });
    cases.set('b.cases.yaml', { request: 'p.prompt.yaml', judge: 'judge.md' });
    cases.set('c.cases.yaml', { request: 'q.prompt.yaml' });
    assert.deepEqual(
      cases.forRequest('p.prompt.yaml').map(c => c.key),
      ['a.cases.yaml', 'b.cases.yaml'],
    );
    assert.deepEqual(cases.forRequest('rows.csv'), [], 'a dataset is no request');
    assert.deepEqual(cases.readers('rows.csv'), ['a.cases.yaml']);
    assert.deepEqual(cases.readers('judge.md'), ['b.cases.yaml']);
    assert.deepEqual(cases.readers('other.yaml'), []);
    assert.deepEqual(cases.get('b.cases.yaml'), { request: 'p.prompt.yaml', judge: 'judge.md' });
  });

  it('follows a case file that names another request, and one forgotten', () => {
    const cases = index();
    assert.equal(cases.set('a.cases.yaml', { request: 'p.prompt.yaml' }), undefined);
    assert.equal(cases.set('a.cases.yaml', { request: 'q.prompt.yaml' }), 'p.prompt.yaml', 'the request it named');
    assert.deepEqual(cases.forRequest('p.prompt.yaml'), []);
    assert.deepEqual(
      cases.forRequest('q.prompt.yaml').map(c => c.key),
      ['a.cases.yaml'],
    );
    assert.deepEqual(cases.forget('a.cases.yaml'), { request: 'q.prompt.yaml' });
    assert.equal(cases.get('a.cases.yaml'), undefined);
    assert.deepEqual(cases.readers('q.prompt.yaml'), []);
    assert.equal(cases.forget('a.cases.yaml'), undefined);
  });

  it('drops a check that ends after a newer one started, or after its file was forgotten', () => {
    const cases = index();
    const first = cases.begin('a.cases.yaml');
    const second = cases.begin('a.cases.yaml');
    assert.equal(first(), false);
    assert.equal(second(), true);
    const other = cases.begin('b.cases.yaml');
    assert.equal(second(), true, 'another file has checks of its own');
    cases.forget('b.cases.yaml');
    assert.equal(other(), false);
  });

  it("keys files the front end's way: two URI objects of one file are one file", () => {
    const cases = new CaseIndex<URL, Checked>(
      u => u.href,
      c => ({ request: c.request ? new URL(c.request) : undefined, files: [] }),
    );
    cases.set(new URL('file:///w/a.cases.yaml'), { request: 'file:///w/p.prompt.yaml' });
    assert.deepEqual(cases.get(new URL('file:///w/a.cases.yaml')), { request: 'file:///w/p.prompt.yaml' });
    assert.deepEqual(
      cases.forRequest(new URL('file:///w/p.prompt.yaml')).map(c => c.key.href),
      ['file:///w/a.cases.yaml'],
    );
  });

  describe('a file event asks for the case files to check again', () => {
    const cases = index();
    cases.set('a.cases.yaml', { request: 'p.prompt.yaml', dataset: 'rows.csv' });
    cases.set('b.cases.yaml', { request: 'p.prompt.yaml' });

    it('an edit: the case file itself, or every case file reading the file edited', () => {
      assert.deepEqual(cases.changed('a.cases.yaml', true, { kind: 'text' }), { check: ['a.cases.yaml'] });
      assert.deepEqual(cases.changed('new.cases.yaml', true, { kind: 'text' }), { check: ['new.cases.yaml'] });
      assert.deepEqual(cases.changed('p.prompt.yaml', false, { kind: 'text' }), {
        check: ['a.cases.yaml', 'b.cases.yaml'],
      });
      assert.deepEqual(cases.changed('rows.csv', false, { kind: 'text' }), { check: ['a.cases.yaml'] });
      assert.deepEqual(cases.changed('unread.json', false, { kind: 'text' }), { check: [] });
    });

    it('on disk: a file the editor holds changes with its text, not the disk, unless it was deleted', () => {
      const disk = (deleted: boolean, open: boolean) => ({ kind: 'disk' as const, deleted, open });
      assert.deepEqual(cases.changed('a.cases.yaml', true, disk(false, false)), { check: ['a.cases.yaml'] });
      assert.deepEqual(cases.changed('a.cases.yaml', true, disk(false, true)), { check: [] });
      assert.deepEqual(cases.changed('a.cases.yaml', true, disk(true, false)), { check: [], forget: 'a.cases.yaml' });
      assert.deepEqual(cases.changed('p.prompt.yaml', false, disk(false, false)), {
        check: ['a.cases.yaml', 'b.cases.yaml'],
      });
      assert.deepEqual(cases.changed('p.prompt.yaml', false, disk(false, true)), { check: [] });
      assert.deepEqual(cases.changed('rows.csv', false, disk(true, true)), { check: ['a.cases.yaml'] });
    });
  });
});
