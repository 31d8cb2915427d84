// Real request bodies the service refused with a 400 for their body alone (test/fixtures/rejected, one per
// rule or variant, each with the service's message and its public sources). The rule they hold us to: what
// the service rejects gets an error, at the place its message names. Its mirror is corpus.test.ts.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { RULES } from '../../../src/core/request/catalog';
import { judgeRejected, REJECTED_DIR, rejectedEntries, RULE_NAMES, trustFigures, WARNINGS } from './corpora';

const entries = rejectedEntries();

describe('rejected bodies: an error at the place the service names (test/fixtures/rejected)', () => {
  it('the manifest names every body, each with a rule, a path and at least one source', () => {
    const files = fs
      .readdirSync(REJECTED_DIR)
      .filter(f => f.endsWith('.json') && f !== 'manifest.json')
      .sort();
    assert.deepEqual(entries.map(e => e.file).sort(), files);
    // an empty path only where the message names no field (a body that is not valid JSON)
    for (const e of entries)
      assert.ok(e.rule && (e.path.length || e.rule === 'lone-surrogate') && e.sources.length && e.message, e.file);
  });
  it("every rule name the corpus maps to is one of the catalog's, and every warning is explained", () => {
    for (const code of Object.values(RULE_NAMES)) assert.ok(code in RULES, code);
    for (const e of entries) assert.ok((RULE_NAMES[e.rule] ?? e.rule) in RULES, `${e.file}: ${e.rule}`);
    for (const rule of Object.keys(WARNINGS))
      assert.ok(
        entries.some(e => e.rule === rule),
        rule,
      );
  });
  for (const e of entries) {
    const warning = e.rule in WARNINGS;
    const what = `${warning ? 'a warning' : 'an error'} ${RULE_NAMES[e.rule] ?? e.rule} at ${e.path.join('/')}`;
    it(`${e.file}: ${what}`, () => {
      const v = judgeRejected(e);
      assert.ok(warning ? v.warned : v.placed, `got:\n  ${v.got.join('\n  ')}`);
    });
  }
  it('the trust figures: every accepted body free of errors, every rejected one flagged at its place', () => {
    const t = trustFigures();
    assert.deepEqual(t.accepted.failures, []);
    assert.deepEqual(t.rejected.failures, []);
    assert.equal(t.rejected.placed + t.rejected.warned, t.rejected.total);
  });
});
