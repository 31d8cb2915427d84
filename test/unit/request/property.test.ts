// Property test: random truncations and byte flips of valid files never throw and always return diagnostics.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import fc from 'fast-check';
import { formatOf } from '../../../src/core/fileNames';
import { validateText } from '../../../src/core/request/validate';

const files = fs.readdirSync('examples').map(f => ({
  format: formatOf(f),
  text: fs.readFileSync(`examples/${f}`, 'utf8'),
}));

describe('robustness (property tests)', function () {
  // hundreds of files checked a test: a second alone, more on a busy machine (the figures of speed are in bench/)
  this.timeout(10_000);
  it('every truncation of a valid file returns problems without throwing', () => {
    fc.assert(
      fc.property(fc.constantFrom(...files), fc.nat(), ({ format, text }, n) => {
        const cut = text.slice(0, n % text.length);
        const r = validateText(cut, format);
        if (format === 'json' && cut.trim() !== text.trim())
          assert.ok(r.problems.length > 0, 'a truncated JSON request is never valid');
        for (const p of r.problems) assert.ok(p.start >= 0 && p.end <= Math.max(cut.length, 1) && p.start <= p.end);
      }),
      { numRuns: 300 },
    );
  });
  it('random byte flips never throw, and ranges stay inside the text', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...files),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 127 })), { minLength: 1, maxLength: 8 }),
        ({ format, text }, flips) => {
          const chars = [...text];
          for (const [i, c] of flips) chars[i % chars.length] = String.fromCharCode(c);
          const t = chars.join('');
          const r = validateText(t, format);
          assert.ok(Array.isArray(r.problems));
          for (const p of r.problems)
            assert.ok(p.start >= 0 && p.end <= Math.max(t.length, 1), `${p.start}-${p.end} in ${t.length}`);
        },
      ),
      { numRuns: 300 },
    );
  });
});
