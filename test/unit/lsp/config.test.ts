// The environment means the same to the CLI and to the language server: both read it through core/settings.ts
// (settingsFromEnv) and build their client's options one way (clientOptions), so PROMPTWRIGHT_MAX_RETRIES=50 is
// the setting's most, 10, in `promptwright test` as in `promptwright lsp`, and a value that is not a number is
// the default in both.
import * as assert from 'node:assert/strict';
import type { HttpOptions } from '../../../src/core/api/http';
import { httpOptionsFromEnv } from '../../../src/cli/env';
import { ServerConfig } from '../../../src/lsp/config';

/** What a client's options say of the service, without the CLI's log hook. */
function service(o: HttpOptions) {
  const { baseUrl, apiKey, apiVersion, betas, maxRetries, streamIdleTimeoutMs } = o;
  return { baseUrl, apiKey, apiVersion, betas, maxRetries, streamIdleTimeoutMs };
}

describe('the CLI and the language server read the environment one way', () => {
  const base = { PROMPTWRIGHT_BASE_URL: 'http://127.0.0.1:9/', PROMPTWRIGHT_API_KEY: 'sk-vendor-api03-env' };

  for (const [given, retries] of [
    ['50', 10],
    ['3', 3],
    ['-1', 0],
    ['many', 2],
    ['', 2],
    [undefined, 2],
  ] as const)
    it(`PROMPTWRIGHT_MAX_RETRIES=${given ?? '(unset)'} is ${retries} retries in test and in lsp`, () => {
      const env = { ...base, ...(given === undefined ? {} : { PROMPTWRIGHT_MAX_RETRIES: given }) };
      const cli = service(httpOptionsFromEnv(env));
      const lsp = service(new ServerConfig(env).clientOptions);
      assert.equal(cli.maxRetries, retries);
      assert.deepEqual(lsp, cli);
    });

  it('the address, the version and the betas too, the address without its trailing slash', () => {
    const env = { ...base, PROMPTWRIGHT_API_VERSION: '2024-01-01', PROMPTWRIGHT_BETAS: ' a-1, ,b-2 ' };
    const cli = service(httpOptionsFromEnv(env));
    assert.deepEqual(cli, {
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'sk-vendor-api03-env',
      apiVersion: '2024-01-01',
      betas: ['a-1', 'b-2'],
      maxRetries: 2,
      streamIdleTimeoutMs: 60_000,
    });
    assert.deepEqual(service(new ServerConfig(env).clientOptions), cli);
  });

  it("the server's client takes what its client sends over the environment, bounded the same way", () => {
    const config = new ServerConfig({ ...base, PROMPTWRIGHT_MAX_RETRIES: '1' });
    config.setInitial({ promptwright: { maxRetries: 50 } });
    assert.equal(config.clientOptions.maxRetries, 10);
  });
});
