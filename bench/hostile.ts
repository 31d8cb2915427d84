// Files built to make a check slow, as a stranger's pull request can: the checks run with no action (opening a
// folder, CI's keyless `check .`). Before, 50 KB of case and request files took `check` 78 s and 2 GB, and 300,000
// unknown keys 33 s. Two figures for each:
// - linear: the check of the file against the checks of its two halves (a file of half as many cases,
//   placeholders or keys, run twice). A check quadratic in the file takes twice as long as its halves; a linear one
//   as long, and a little more where V8 is not linear itself (JSON.parse of an object of 300,000 keys takes 1.2 to
//   1.7 times as long as of two of 150,000). At most MAX_PER_RULE problems of a rule are built and placed, and
//   "did you mean" weighs a bounded set of names.
// - against JSON.parse of the same bytes (yaml.parse for YAML), the floor of any check.
// - for the files built of placeholders, also against the least work that reads them: both files parsed and each
//   placeholder named once (indexOf, a slice, a Set). JSON.parse copies a 0.2 MB string in 0.25 ms; naming its
//   20,000 placeholders takes ten to twenty times that whatever reads them, so "2× JSON.parse" cannot be met there
//   and this second figure says how far the check is from what it must do.
import * as YAML from 'yaml';
import { loadCaseFileFrom } from '../src/core/cases/load';
import { MAX_PER_RULE } from '../src/core/request/perRule';
import { validateText } from '../src/core/request/validate';
import { ratioCase, type Figure } from './bench';

const request = (content: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ model: 'model-opus-4-7', max_tokens: 100, messages: [{ role: 'user', content }], ...extra });

const placeholders = (n: number) => Array.from({ length: n }, (_, i) => `{{p${i}}}`).join(' ');
const caseFile = (cases: object[]) => JSON.stringify({ request: 'r.prompt.json', cases });

/** A file to check, made at a size: `n` cases, placeholders or keys. */
interface Input {
  name: string;
  /** the size of the figure; the linear figure compares it with n / 2 */
  n: number;
  make: (n: number) => { check: () => number; floor: () => unknown; least?: () => unknown; bytes: number };
}

/** A case file and its request, checked as `check` checks a case file (both read, checked, checked together). */
function pair(caseText: string, requestText: string) {
  const source = (abs: string) => ({ text: abs.endsWith('.cases.json') ? caseText : requestText });
  return {
    check: () => loadCaseFileFrom('/w/a.cases.json', '/w', source, 'a.cases.json').records.length,
    floor: (): unknown => [JSON.parse(caseText), JSON.parse(requestText)],
    least: (): unknown => [JSON.parse(caseText), JSON.parse(requestText), namePlaceholders(requestText)],
    bytes: caseText.length + requestText.length,
  };
}

/** Each `{{name}}` of a text named once: the least any check of placeholders does. */
function namePlaceholders(text: string): Set<string> {
  const names = new Set<string>();
  for (let i = text.indexOf('{{'); i >= 0; i = text.indexOf('{{', i + 2)) {
    const end = text.indexOf('}}', i + 2);
    if (end < 0) break;
    names.add(text.slice(i + 2, end));
  }
  return names;
}

/** A request file, checked as `check` checks it. */
function requestFile(text: string, format: 'json' | 'yaml') {
  return {
    check: () => validateText(text, format).problems.length,
    floor: (): unknown => (format === 'json' ? JSON.parse(text) : YAML.parse(text, { uniqueKeys: false })),
    bytes: text.length,
  };
}

const INPUTS: Input[] = [
  {
    // every case lacks every placeholder: n² pairs, each a problem in both files
    name: 'placeholders × as many cases without vars',
    n: 3000,
    make: n => pair(caseFile(Array.from({ length: n }, (_, i) => ({ name: `c${i}` }))), request(placeholders(n))),
  },
  {
    // each value a near miss of a placeholder: "did you mean" for each
    name: 'unused vars near as many placeholders',
    n: 20_000,
    make: n =>
      pair(
        caseFile([{ name: 'c', vars: Object.fromEntries(Array.from({ length: n }, (_, i) => [`q${i}`, 'x'])) }]),
        request(placeholders(n)),
      ),
  },
  {
    // one string holds them all: each found once, not once per name
    name: 'placeholders in one string, none given',
    n: 20_000,
    make: n => pair(caseFile([{ name: 'c', vars: { z: 1 } }]), request(placeholders(n))),
  },
  {
    name: 'unknown keys in a case',
    n: 100_000,
    make: n =>
      pair(
        caseFile([{ name: 'c', ...Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 1])) }]),
        request('hi'),
      ),
  },
  {
    name: 'unknown keys in a request',
    n: 200_000,
    make: n =>
      requestFile(request('hi', Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 1]))), 'json'),
  },
  {
    // the yaml library compares each key with those before it; the check finds duplicates with a set
    name: 'YAML keys, each twice',
    n: 10_000,
    make: n => {
      const keys = Array.from({ length: n }, (_, i) => `k${i}: 1`).join('\n');
      return requestFile(
        `model: m\nmax_tokens: 1\nmessages: [{ role: user, content: hi }]\n${keys}\n${keys}\n`,
        'yaml',
      );
    },
  },
];

export function hostileBench(figs: Figure[]): void {
  for (const input of INPUTS) {
    const whole = input.make(input.n);
    const half = input.make(input.n / 2);
    const problems = whole.check();
    // each rule's first problems in each file, and one more that counts the rest
    if (problems > 8 * (MAX_PER_RULE + 1)) throw new Error(`${input.name}: ${problems} problems`);
    const size = `${input.n.toLocaleString('en-US')}, ${(whole.bytes / 1e6).toFixed(2)} MB`;
    figs.push(
      ratioCase({
        name: `check, ${input.name} (${size}): vs its halves`,
        target: 1.5,
        floor: { name: 'two checks of half of it', run: () => half.check() + half.check() },
        ours: { name: 'one check of it', run: whole.check },
      }),
      ratioCase({
        name: `check, ${input.name} (${size}): vs ${input.name.startsWith('YAML') ? 'yaml.parse' : 'JSON.parse'}`,
        target: 2,
        floor: { name: 'parse', run: whole.floor },
        ours: { name: 'check', run: whole.check },
      }),
    );
    if (whole.least && input.name.includes('placeholders'))
      figs.push(
        ratioCase({
          name: `check, ${input.name} (${size}): vs parsing and naming each placeholder`,
          target: 2,
          floor: { name: 'parse and name', run: whole.least },
          ours: { name: 'check', run: whole.check },
        }),
      );
  }
}
