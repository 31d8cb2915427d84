// A suite's fake of the service, the one way: started before the suite, cleared before each test, closed after it,
// and the clients and the CLI environment that talk to it.
import { ApiClient, type ClientOptions } from '../../src/core/api/client';
import { startFake, type Fake, type FakeOptions } from '../fake/server';

/**
 * Mocha hooks for a suite that talks to its own fake (over TCP, in this process). What it returns stands for the
 * fake the `before` hook starts, so a suite writes `const fake = useFake()` and reads `fake.requests` in its
 * hooks and tests as it would the fake itself. `each: 'test'` starts a new fake for every test (for tests that
 * change its data), instead of one for the suite cleared before every test.
 */
export function useFake(options: FakeOptions = {}, each: 'suite' | 'test' = 'suite'): Fake {
  let current: Fake | undefined;
  const start = async () => {
    current = await startFake(options);
  };
  const stop = async () => {
    await current?.close();
    current = undefined;
  };
  if (each === 'test') {
    beforeEach(start);
    afterEach(stop);
  } else {
    before(start);
    after(stop);
    beforeEach(() => current?.clear());
  }
  return new Proxy({} as Fake, {
    get(_, key) {
      if (!current) throw new Error('the fake runs from the suite\'s "before" hook to its "after": use it in between');
      const value: unknown = Reflect.get(current, key);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(current) : value;
    },
  });
}

/** A client of `fake` with its API key, no retries unless `o` says otherwise. */
export function clientOf(fake: Fake, o: Partial<ClientOptions> = {}): ApiClient {
  return new ApiClient({ baseUrl: fake.url, apiKey: fake.apiKey, maxRetries: 0, ...o });
}

/** The environment that points the CLI at `fake` with its API key (and whatever `extra` adds). */
export function cliEnv(fake: Fake, extra: Record<string, string> = {}): Record<string, string> {
  return { PROMPTWRIGHT_BASE_URL: fake.url, PROMPTWRIGHT_API_KEY: fake.apiKey, ...extra };
}

/** A fake of its own for one test (with options of its own): started, given to `run`, closed whatever happens. */
export async function withFake<T>(options: FakeOptions, run: (fake: Fake) => Promise<T>): Promise<T> {
  const fake = await startFake(options);
  try {
    return await run(fake);
  } finally {
    await fake.close();
  }
}
