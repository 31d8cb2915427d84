// What `promptwright count` and `promptwright run` say when things go wrong, against the fake service: hints
// that agree with the response (a 500 the service asked not to retry, a 413, a connection closed mid-stream),
// counts with their plural, usage marked as message_start's when the stream broke, and a refusal's details.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../../src/cli/main';
import { cliEnv, useFake } from '../../support/fake';

interface Run {
  code: number;
  out: string;
  err: string;
}

describe('promptwright count / run: messages true to the response (CLI, against the fake)', () => {
  const fake = useFake();
  let dir: string;
  let env: Record<string, string>;
  before(async () => {
    env = cliEnv(fake, { PROMPTWRIGHT_MAX_RETRIES: '0' });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-cli-say-'));
  });
  after(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the CLI on a request file whose last user turn says `content` (scenario words steer the fake). */
  async function cli(command: 'count' | 'run', content: string, extraEnv: Record<string, string> = {}): Promise<Run> {
    const file = path.join(dir, 'r.prompt.json');
    fs.writeFileSync(
      file,
      JSON.stringify({ model: 'model-opus-4-7', max_tokens: 50, messages: [{ role: 'user', content }] }),
    );
    let out = '';
    let err = '';
    const code = await runCli([command, file], {
      stdout: { write: s => (out += s) },
      stderr: { write: s => (err += s) },
      env: { ...env, ...extraEnv },
    });
    return { code, out, err };
  }

  describe('hints', () => {
    it('a 500 with x-should-retry: false says the service asked not to retry, with its message', async () => {
      const message = 'this request cannot be served';
      fake.fail({ status: 500, message, headers: { 'x-should-retry': 'false' } });
      const r = await cli('count', 'hi', { PROMPTWRIGHT_MAX_RETRIES: '2' });
      assert.equal(r.code, 1);
      assert.match(r.err, /500 api_error: this request cannot be served \(request-id req_fake_\d+\)/);
      assert.match(r.err, /the service asked not to retry this request \(x-should-retry: false\)/);
      assert.doesNotMatch(r.err, /retry later/);
      assert.equal(fake.requests.length, 1, 'and it was not retried');
    });

    it('a 500 without the header still says retry later', async () => {
      fake.fail({ status: 500 });
      const r = await cli('count', 'hi');
      assert.match(r.err, /— a service error: retry later\./);
    });

    it('a 413 says the request body is too large, its size in bytes, and how to make it smaller', async () => {
      const image = 'A'.repeat(3000); // a base64 image, as a request file would carry one
      fake.fail({ status: 413, message: 'Request exceeds the maximum size' });
      const r = await cli('run', `look ${image}`);
      assert.equal(r.code, 1);
      const sent = Buffer.byteLength(JSON.stringify(fake.requests[0]!.body));
      assert.ok(sent > 3000);
      assert.match(r.err, /413 request_too_large: Request exceeds the maximum size/);
      assert.ok(r.err.includes(`the request body is too large (${sent.toLocaleString('en-US')} bytes of JSON)`), r.err);
      assert.match(r.err, /"file" source by file_id .*Files API.* or a "url" source instead of base64 data/);
    });

    it('a connection closed mid-stream: how far the reply got, no library code; the partial reply kept', async () => {
      const r = await cli('run', 'x #cut #long=40');
      assert.equal(r.code, 1);
      const words = r.out.match(/w\d+ /g) ?? [];
      assert.ok(words.length > 0, 'the partial reply is on stdout');
      const failure = r.err.split('\n')[0]!;
      // message_start, content_block_start and a ping before the deltas
      const events = 3 + words.length;
      const chars = words.join('').length;
      assert.equal(
        failure,
        `promptwright run: the stream failed: connection_error: The connection closed after ${events} events ` +
          `(${chars} characters of reply); the partial reply is kept [request-id ${/req_fake_stream_\d+/.exec(failure)?.[0]}]`,
      );
      assert.doesNotMatch(r.err, /UND_ERR|Cannot reach|other side closed|terminated/);
      const debug = await cli('run', 'x #cut #long=40', { PROMPTWRIGHT_DEBUG: '1' });
      assert.match(debug.err, /\[promptwright\] stream ended by: \S+/, 'the library detail is kept for debugging');
    });
  });

  describe('the summary line', () => {
    it('counts with their plural', async () => {
      const r = await cli('run', 'hello there, a reply of several tokens');
      assert.equal(r.code, 0, r.err);
      assert.match(
        r.err,
        /^stop_reason: end_turn · \d+ input tokens \(no cache read or written\) and \d+ output tokens · \$[\d.]+ · request-id /m,
      );
    });

    it('a broken stream: usage marked as message_start’s, "1 token" singular', async () => {
      const r = await cli('run', 'x #cut #long=40');
      assert.match(
        r.err,
        /^stop_reason: none · usage from message_start only \(the stream ended before the final message_delta\): \d+ input tokens \(no cache read or written\) and 1 output token · \$[\d.]+ · request-id req_fake_stream_\d+$/m,
      );
    });
  });

  describe('refusals', () => {
    it('stop_details: the category and the explanation on stderr', async () => {
      const r = await cli('run', 'please #refusal #cyber');
      assert.equal(r.code, 0, r.err);
      assert.match(r.err, /^stop_reason: refusal · /m);
      assert.match(
        r.err,
        /^stop_details: refusal · category cyber · explanation "The request asked for working exploit code\."$/m,
      );
    });

    it('a refusal without a category or explanation says so', async () => {
      const r = await cli('run', 'please #refusal');
      assert.match(r.err, /^stop_details: refusal · category null · explanation null$/m);
    });

    it('no stop_details line for other stop reasons', async () => {
      const r = await cli('run', 'hi');
      assert.doesNotMatch(r.err, /stop_details/);
    });
  });
});
