import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { endpointByPatterns, RESTRICTED_SETTINGS, Settings, USER_ONLY_SETTINGS } from '../../../src/core/settings';
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
    assert.deepEqual(c.service, { baseUrl: 'https://env.test', apiKey: 'env-key' });
    c.setInitial({
      promptwright: { baseUrl: 'https://init.test', apiKey: 'init-key', cache: { minimumTokens: { m: 5 } } },
    });
    assert.equal(c.settings.baseUrl, 'https://init.test');
    assert.deepEqual(c.service, { baseUrl: 'https://init.test', apiKey: 'init-key' });
    assert.deepEqual(c.settings.cacheMinimumTokens, { m: 5 });
    c.setCurrent({ promptwright: { baseUrl: 'https://client.test', apiKey: 'shown-key', 'tokenCount.live': false } });
    assert.equal(c.settings.baseUrl, 'https://client.test');
    assert.equal(c.service.apiKey, 'init-key', 'a key in the shown configuration is not taken');
    assert.equal(c.live, false);
    assert.deepEqual(c.secrets, ['init-key', 'env-key']);
    c.addBeta('z');
    assert.deepEqual(c.betas, ['x', 'y', 'z']);
  });

  it("the server: an address from the editor takes the environment's key only when the environment names it", () => {
    const c = new ServerConfig({ PROMPTWRIGHT_BASE_URL: 'https://api.example.com/', PROMPTWRIGHT_API_KEY: 'env-key' });
    // a project's settings file names another address: the environment's key does not go there
    c.setCurrent({ promptwright: { baseUrl: 'https://collector.example.net' } });
    const refused = c.service;
    assert.equal(refused.baseUrl, 'https://collector.example.net');
    assert.equal(refused.apiKey, undefined);
    assert.match(refused.refused ?? '', /name https:\/\/collector\.example\.net, not PROMPTWRIGHT_BASE_URL/);
    assert.equal(c.live, false);
    // the same address as the environment's (another spelling of it): its key
    for (const same of ['https://API.example.com', 'https://api.example.com/', 'https://api.example.com:443']) {
      c.setCurrent({ promptwright: { baseUrl: same } });
      assert.equal(c.service.apiKey, 'env-key', same);
    }
    // another path on the same host is another address
    c.setCurrent({ promptwright: { baseUrl: 'https://api.example.com/proxy' } });
    assert.equal(c.service.apiKey, undefined);
    // the editor's own key goes with the editor's address
    c.setInitial({ apiKey: 'editor-key' });
    assert.deepEqual(c.service, { baseUrl: 'https://api.example.com/proxy', apiKey: 'editor-key' });
    // no address from the editor: the environment's, with its key
    const e = new ServerConfig({ PROMPTWRIGHT_BASE_URL: 'https://api.example.com', PROMPTWRIGHT_API_KEY: 'env-key' });
    e.setCurrent({ promptwright: { 'tokenCount.live': true } });
    assert.deepEqual(e.service, { baseUrl: 'https://api.example.com', apiKey: 'env-key' });
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

  it('package.json: where a key goes or what runs is the user’s setting; where files go, restricted', () => {
    type Property = { scope?: string; type?: unknown; markdownDescription?: string; description?: string };
    const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as {
      contributes: { configuration: { properties: Record<string, Property> } };
      capabilities: {
        untrustedWorkspaces: { supported: string; description: string; restrictedConfigurations: string[] };
      };
    };
    const properties = Object.entries(pkg.contributes.configuration.properties);
    // an address or an executable: by its name or by what it says it is
    const names = /url|address|host|endpoint|path|command|executable|program|binary/i;
    const says = /\baddress\b|\bexecutable\b|\bbinary\b|\bURL\b/;
    const where = properties
      .filter(([k, v]) => names.test(k) || says.test(v.markdownDescription ?? v.description ?? ''))
      .map(([k]) => k.replace(/^promptwright\./, ''))
      .filter(k => !RESTRICTED_SETTINGS.includes(k));
    assert.deepEqual(where, [...USER_ONLY_SETTINGS]);
    for (const k of USER_ONLY_SETTINGS) {
      const scope = pkg.contributes.configuration.properties[`promptwright.${k}`]?.scope;
      assert.ok(scope === 'application' || scope === 'machine', `promptwright.${k} has scope ${scope}`);
    }
    const untrusted = pkg.capabilities.untrustedWorkspaces;
    assert.equal(untrusted.supported, 'limited');
    assert.deepEqual(
      untrusted.restrictedConfigurations,
      RESTRICTED_SETTINGS.map(k => `promptwright.${k}`),
    );
    for (const k of untrusted.restrictedConfigurations) assert.ok(pkg.contributes.configuration.properties[k], k);
    // what Restricted Mode does, said where VS Code shows it
    for (const said of ['Count Tokens', 'model list', 'git', 'transcripts', 'case results', 'user settings'])
      assert.ok(untrusted.description.includes(said), said);
  });
});
