// The fake of the service in a process of its own, for tests that must not share an event loop with it
// (counting the handles a client leaves behind) and for whole-process benchmarks.
//   node out/test/fake/main.js '{"keepAliveMs": 60000}'
// prints one line `{"url": "http://127.0.0.1:PORT"}`, then reads commands from stdin, one JSON object a
// line, and answers each with a line `ok`:
//   {"fail": <Fault>, "times": N}   queue a fault, as Fake.fail does
//   {"clear": true}                 forget requests and queued faults
// It exits when stdin closes (the parent went away) or on SIGTERM.
import { createInterface } from 'node:readline';
import { startFake, type Fault, type FakeOptions } from './server';

async function main(): Promise<void> {
  const fake = await startFake(JSON.parse(process.argv[2] ?? '{}') as FakeOptions);
  process.stdout.write(`${JSON.stringify({ url: fake.url })}\n`);
  const lines = createInterface({ input: process.stdin });
  lines.on('line', line => {
    const c = JSON.parse(line) as { fail?: Fault; times?: number; clear?: boolean };
    if (c.fail) fake.fail(c.fail, c.times);
    if (c.clear) fake.clear();
    process.stdout.write('ok\n');
  });
  const stop = () => void fake.close().then(() => process.exit(0));
  lines.on('close', stop);
  process.on('SIGTERM', stop);
}

void main();
