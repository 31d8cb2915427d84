// The questions a run of cases asks before anything runs: which case file (from a request file, the case files
// that name it), and Run Sample…'s how many (and which seed), chosen as `promptwright test --sample N --seed S`
// chooses them.
import * as vscode from 'vscode';
import { count, thousands } from '../../core/text';
import { coreBundle } from '../platform/lazy';
import type { Prompts } from '../platform/prompts';
import type { CaseDiagnostics } from './caseDiagnostics';
import { isCaseFile } from '../../core/fileNames';

const fileName = (uri: vscode.Uri) => uri.path.split('/').pop() ?? uri.path;

/**
 * The case file to run: `uri` when it is one; for a request file, the case file that names it (a pick when several
 * do); else the workspace's (a pick when there are several). Undefined, with a word on what to do, when none.
 */
export async function chooseCaseFile(
  cases: CaseDiagnostics,
  prompts: Prompts,
  uri: vscode.Uri | undefined,
): Promise<vscode.Uri | undefined> {
  if (uri && isCaseFile(uri.path)) return uri;
  await cases.ready;
  const naming = uri ? cases.forRequest(uri) : [];
  const candidates = naming.length ? naming : cases.all();
  if (uri && !naming.length && !isCaseFile(uri.path) && /\.prompt\.(json|ya?ml)$/i.test(uri.path)) {
    const name = fileName(uri);
    void vscode.window.showInformationMessage(
      `Promptwright: no case file names ${name}. Write one beside it (e.g. ` +
        `${name.replace(/\.prompt\.(json|ya?ml)$/i, '')}.cases.yaml) with "request: ${name}" and a list of cases.`,
    );
    return undefined;
  }
  if (!candidates.length) {
    void vscode.window.showInformationMessage(
      'Promptwright: open a case file (*.cases.yaml, *.cases.json) to run its cases.',
    );
    return undefined;
  }
  if (candidates.length === 1) return candidates[0]!.uri;
  const items = candidates.map(e => ({
    label: fileName(e.uri),
    description: vscode.workspace.asRelativePath(e.uri),
    detail: e.file ? `${count(e.file.cases.length, 'case')} · request ${e.file.request}` : undefined,
    uri: e.uri,
  }));
  const pick = await prompts.pick(items, { title: 'Run Cases', placeHolder: 'Which case file?' });
  return pick?.uri;
}

/**
 * Run Sample…'s question: how many of the case file's `cases` (1 to all; a seed may follow the number), answered by
 * `answer` or asked; then which cases, by name (their stable ids decide). Undefined when the question is dismissed.
 */
export async function askSample(
  prompts: Prompts,
  caseUri: vscode.Uri,
  cases: readonly { name: string; id?: string }[],
  answer: string | undefined,
): Promise<{ n: number; seed: number; total: number; names: Set<string> } | { problem: string } | undefined> {
  const total = cases.length;
  const text =
    answer ??
    (await prompts.input({
      title: `Run Sample of ${fileName(caseUri)}`,
      prompt: `How many of its ${count(total, 'case')} to run, chosen at random (a seed after it repeats a sample)`,
      placeHolder: `1 to ${thousands(total)}`,
      validateInput: v => sampleAnswer(v, total).problem,
    }));
  if (text === undefined) return undefined;
  const chosen = sampleAnswer(text, total);
  if (chosen.problem !== undefined) return { problem: chosen.problem };
  const { n, seed } = chosen;
  const chooser = new (coreBundle().Chooser)<{ name: string; id: string }>({ sample: n, seed });
  for (const c of cases) chooser.offer(c.name, c.id ?? c.name, { name: c.name, id: c.id ?? c.name });
  return { n, seed, total, names: new Set(chooser.chosen(c => c.id).map(c => c.name)) };
}

/**
 * Run Sample…'s answer: `N` or `N SEED`, N a whole number from 1 to `total`, SEED a whole number (else one is drawn
 * at random, and said); or what is wrong with it.
 */
function sampleAnswer(
  text: string,
  total: number,
): { n: number; seed: number; problem?: undefined } | { problem: string } {
  const m = /^\s*(\d+)(?:\s+(\d+))?\s*$/.exec(text);
  const n = m ? Number(m[1]) : NaN;
  if (!m || n < 1 || n > total)
    return { problem: `A whole number from 1 to ${thousands(total)}, then a seed if you like: "50 7".` };
  const seed = m[2] !== undefined ? Number(m[2]) : Math.floor(Math.random() * 100_000);
  if (!Number.isSafeInteger(seed) || seed > 0xffffffff)
    return { problem: 'The seed is a whole number up to 4294967295.' };
  return { n, seed };
}
