// The service's model list in the checks (npm run bench): `promptwright check --models FILE` on 1,000 request
// files against `check` without it, in the same run. The saved list is read once and each model looked up
// once, so checking against it should cost next to nothing over the built-in table.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCheck } from '../src/cli/check';
import { fakeModels } from '../test/fake/models';
import { ratioCase, type Figure } from './bench';

const MODELS = [
  'model-quill-1',
  'model-lyra-2',
  'model-opus-4-7',
  'model-sonnet-5',
  'model-haiku-4-5',
  'model-opus-4-8',
];

/** 1,000 small request files over six models (two the table does not know), some thinking or with effort. */
function writeFiles(dir: string): void {
  for (let i = 0; i < 1000; i++) {
    const model = MODELS[i % MODELS.length]!;
    const body = {
      model,
      max_tokens: 1024 + i,
      ...(i % 3 === 0 ? { thinking: { type: 'adaptive' } } : {}),
      ...(i % 5 === 0 ? { output_config: { effort: 'high' } } : {}),
      system: `You answer question ${i} briefly.`,
      messages: [
        { role: 'user', content: `Question ${i}: what is the capital of France?` },
        { role: 'assistant', content: 'Paris.' },
        { role: 'user', content: 'And of Italy?' },
      ],
    };
    fs.writeFileSync(path.join(dir, `r${i}.prompt.json`), JSON.stringify(body, null, 2));
  }
  fs.writeFileSync(path.join(dir, 'models.json'), JSON.stringify(fakeModels(), null, 2));
}

export async function modelsBench(figs: Figure[]): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-bench-models-'));
  try {
    writeFiles(dir);
    const sink = { write: () => true };
    const io = { stdout: sink, stderr: sink, env: {} };
    // the text format prints as it goes: the whole check runs before runCheck returns, its exit code after
    const codes: Promise<number>[] = [];
    const check = (args: string[]) => () => void codes.push(runCheck([...args, '.'], io, dir));
    figs.push(
      ratioCase(
        {
          name: 'check --models FILE, 1,000 files, vs check',
          floor: { name: 'check', run: check([]) },
          ours: { name: 'check --models', run: check(['--models', 'models.json']) },
          target: 1.2,
        },
        6000,
      ),
    );
    if ((await Promise.all(codes)).includes(2)) throw new Error('promptwright check: usage error');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
