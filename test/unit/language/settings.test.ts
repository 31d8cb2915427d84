import * as assert from 'node:assert/strict';
import { endpointByPatterns, Settings } from '../../../src/core/settings';
import { ServerConfig } from '../../../src/lsp/config';
import { Files, pathOf, uriOf } from '../../../src/lsp/files';

describe('settings, as both front ends read them', () => {
  it('defaults, bounds and the shapes a setting may not take', () => {
    const none = new Settings(() => undefined);
    assert.deepEqual(none.requestFilePatterns, ['**/*.prompt.json', '**/*.prompt.yaml', '**/*.prompt.yml']);
    assert.deepEqual(none.countTokensFilePatterns, ['**/*.count.json', '**/*.count.yaml', '**/*.count.yml']);
    assert.equal(none.validationDebounceMs, 250);
    assert.equal(none.apiVersion, '2023-06-01');
    assert.equal(none.compareBase, 'HEAD');
    const odd: Record<string, unknown> = {
      requestFilePatterns: [],
      'validation.debounceMs': 99_999,
      baseUrl: ' https://example.test/// ',
      betas: [' a ', '', 'b'],
      'cache.minimumTokens': ['not a map'],
      maxRetries: 'three',
    };
    const s = new Settings(k => odd[k]);
    assert.deepEqual(s.requestFilePatterns, none.requestFilePatterns, 'an empty list means the defaults');
    assert.equal(s.validationDebounceMs, 5000);
    assert.equal(s.baseUrl, 'https://example.test');
    assert.deepEqual(s.betas, ['a', 'b']);
    assert.deepEqual(s.cacheMinimumTokens, {});
    assert.equal(s.maxRetries, 2);
  });

  it('count files win over request files where both patterns match', () => {
    const s = { requestFilePatterns: ['**/*.json'], countTokensFilePatterns: ['**/*.count.json'] };
    const by = (name: string) => endpointByPatterns(s, ps => ps.some(p => name.endsWith(p.slice(4))));
    assert.equal(by('a.count.json'), 'count_tokens');
    assert.equal(by('a.json'), 'messages');
    assert.equal(by('a.yaml'), undefined);
  });

  it('the server: the client section, then initializationOptions, then the environment; no key from settings', () => {
    const env = {
      PROMPTWRIGHT_BASE_URL: 'https://env.test',
      PROMPTWRIGHT_API_KEY: 'env-key',
      PROMPTWRIGHT_BETAS: 'x,y',
    };
    const c = new ServerConfig(env);
    assert.equal(c.settings.baseUrl, 'https://env.test');
    assert.deepEqual(c.betas, ['x', 'y']);
    assert.equal(c.apiKey, 'env-key');
    c.setInitial({
      promptwright: { baseUrl: 'https://init.test', apiKey: 'init-key', cache: { minimumTokens: { m: 5 } } },
    });
    assert.equal(c.settings.baseUrl, 'https://init.test');
    assert.equal(c.apiKey, 'init-key');
    assert.deepEqual(c.settings.cacheMinimumTokens, { m: 5 });
    c.setCurrent({ promptwright: { baseUrl: 'https://client.test', apiKey: 'shown-key', 'tokenCount.live': false } });
    assert.equal(c.settings.baseUrl, 'https://client.test');
    assert.equal(c.apiKey, 'init-key', 'a key in the shown configuration is not taken');
    assert.equal(c.live, false);
    c.addBeta('z');
    assert.deepEqual(c.betas, ['x', 'y', 'z']);
  });

  it("the server's files: case files by name, the rest by the patterns, in a workspace folder or anywhere", () => {
    const s = new Settings(k => (k === 'requestFilePatterns' ? ['prompts/*.json', '**/*.req.yaml'] : undefined));
    const files = new Files(s);
    files.roots = ['/w'];
    assert.equal(files.kindOf(uriOf('/w/prompts/a.json')), 'messages');
    assert.equal(files.kindOf(uriOf('/elsewhere/b.req.yaml')), 'messages');
    assert.equal(files.kindOf(uriOf('/w/other/a.json')), undefined);
    assert.equal(files.kindOf(uriOf('/w/x.count.json')), 'count_tokens');
    assert.equal(files.kindOf(uriOf('/w/x.cases.yaml')), 'cases');
    assert.equal(pathOf(uriOf('/w/with space/a.json')), '/w/with space/a.json');
    assert.equal(pathOf('untitled:Untitled-1'), 'Untitled-1');
  });
});
