// RULES.md stays true for the case files' rules: each example fires its rule and each "Fixed" version does
// not, checked with parseCaseFile and, where the section gives the request first, crossCheck.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { parseCaseFile } from '../../../src/core/cases/caseFile';
import { crossCheck } from '../../../src/core/cases/crossCheck';
import { toolsCheck } from '../../../src/core/cases/toolsCheck';
import { parseRequest } from '../../../src/core/request/parse';
import { RULES } from '../../../src/core/request/catalog';

const lines = fs.readFileSync('RULES.md', 'utf8').split('\n');
const caseSection = lines.slice(lines.indexOf('## Case files'));

/** Each `### rule` of the case files' section: its fences, and whether the first one is the request. */
function sections(): { rule: string; fences: { text: string; fixed: boolean }[]; withRequest: boolean }[] {
  const out: { rule: string; fences: { text: string; fixed: boolean }[]; withRequest: boolean }[] = [];
  for (let i = 0; i < caseSection.length; i++) {
    const line = caseSection[i]!;
    if (line.startsWith('### ')) out.push({ rule: line.slice(4), fences: [], withRequest: false });
    const cur = out[out.length - 1];
    if (!cur) continue;
    if (/^\*\*Example\*\* \(the request/.test(line)) cur.withRequest = true;
    if (line === '```yaml') {
      let j = i + 1;
      while (caseSection[j] !== '```') j++;
      let k = i - 1;
      while (k >= 0 && caseSection[k]!.trim() === '') k--;
      cur.fences.push({ text: `${caseSection.slice(i + 1, j).join('\n')}\n`, fixed: /^Fixed/.test(caseSection[k]!) });
      i = j;
    }
  }
  return out;
}

describe('RULES.md: the case files’ rules', () => {
  const all = sections();
  it('has a section for every case-file rule of the catalog', () => {
    assert.ok(all.length >= 12);
    for (const s of all) assert.ok(s.rule in RULES, s.rule);
  });
  for (const s of all) {
    if (!s.fences.length) continue;
    it(`${s.rule}: its examples fire it, its fixed versions do not`, () => {
      const [request, ...caseFiles] = s.withRequest ? s.fences : [undefined, ...s.fences];
      for (const f of caseFiles) {
        const parsed = parseCaseFile(f!.text, 'yaml');
        const codes = parsed.problems.map(p => p.code as string);
        if (request && parsed.file) {
          const cross = crossCheck(parsed.file, parsed.locateMany, request.text, 'yaml');
          codes.push(...[...cross.caseProblems, ...cross.requestProblems].map(p => p.code));
          const value = parseRequest(request.text, 'yaml').value;
          codes.push(...toolsCheck(parsed.file, parsed.locate, value, []).map(p => p.code));
        }
        assert.equal(
          codes.includes(s.rule),
          !f!.fixed,
          `${f!.fixed ? 'fixed' : 'failing'} example gives [${codes.join(', ')}]:\n${f!.text}`,
        );
        if (f!.fixed) assert.deepEqual(codes, [], `the fixed example is clean:\n${f!.text}`);
      }
    });
  }
});
