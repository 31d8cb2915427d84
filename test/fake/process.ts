// Starts the fake in a child process (main.ts) and talks to it over its stdin: for tests that count the
// handles their own process holds, where a fake in the same event loop would count as well.
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import type { FakeOptions, Fault } from './server';

export interface FakeProcess {
  url: string;
  fail(fault: Fault, times?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startFakeProcess(options: FakeOptions = {}): Promise<FakeProcess> {
  // tests are bundled one file each, so the entry is found from the repository root (mocha's directory)
  const child = spawn(process.execPath, [path.resolve('out', 'test', 'fake', 'main.js'), JSON.stringify(options)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const waiting: ((line: string) => void)[] = [];
  lines.on('line', line => waiting.shift()?.(line));
  const nextLine = () => new Promise<string>(resolve => waiting.push(resolve));
  const { url } = JSON.parse(await nextLine()) as { url: string };
  const command = async (c: object) => {
    const answer = nextLine();
    child.stdin.write(`${JSON.stringify(c)}\n`);
    await answer;
  };
  return {
    url,
    fail: (fault, times = 1) => command({ fail: fault, times }),
    close: () =>
      new Promise<void>(resolve => {
        child.once('exit', () => resolve());
        child.stdin.end();
      }),
  };
}
