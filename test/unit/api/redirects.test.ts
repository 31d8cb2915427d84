// No redirect carries a key: the service's address answers 301/302/303/307/308 pointing at another origin (a
// second fake, which records every request it gets), and the client, whichever key the call uses (API, Admin,
// Compliance), stops with an error naming where it pointed. The other origin never hears of the request.
import * as assert from 'node:assert/strict';
import { AdminClient } from '../../../src/core/admin/client';
import { ApiClient } from '../../../src/core/api/client';
import { ApiError } from '../../../src/core/api/errors';
import { Http } from '../../../src/core/api/http';
import { ComplianceClient } from '../../../src/core/compliance/client';
import { firstPage } from '../../../src/core/api/pager';
import { useFake } from '../../support/fake';

const COMPLIANCE_KEY = 'sk-vendor-api01-full';
const body = { model: 'model-opus-4-7', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };

describe('redirects: no key follows one', () => {
  const service = useFake();
  const elsewhere = useFake();
  const logs: string[] = [];
  const http = () =>
    new Http({
      baseUrl: service.url,
      apiKey: service.apiKey,
      adminKey: service.adminKey,
      complianceKey: COMPLIANCE_KEY,
      maxRetries: 2,
      onLog: l => logs.push(l),
    });
  beforeEach(() => (logs.length = 0));

  const calls: { key: string; path: string; call: () => Promise<unknown> }[] = [
    { key: 'API', path: '/v1/messages/count_tokens', call: () => new ApiClient(http().o).countTokens(body) },
    { key: 'API (a stream)', path: '/v1/messages', call: () => new ApiClient(http().o).streamMessage(body) },
    { key: 'Admin', path: '/v1/organizations/me', call: () => new AdminClient(http()).org() },
    {
      key: 'Compliance',
      path: '/v1/compliance/activities',
      call: () => firstPage(new ComplianceClient(http(), 'compliance').activities()),
    },
  ];

  for (const { key, path, call } of calls)
    for (const status of [301, 302, 303, 307, 308])
      it(`the ${key} key: a ${status} to another origin is an error naming it, and nothing is sent there`, async () => {
        const target = `${elsewhere.url}${path}?from=redirect`;
        service.fail({ path, status, headers: { location: target } });
        await assert.rejects(call(), (e: unknown) => {
          assert.ok(e instanceof ApiError, String(e));
          assert.equal(e.status, status);
          assert.equal(e.type, 'redirect');
          assert.equal(e.action, 'set-base-url');
          assert.ok(e.message.includes(`redirected to ${target}`), e.message);
          assert.match(e.describe(), /no redirect is followed/);
          return true;
        });
        assert.equal(service.requests.length, 1, 'asked once: a redirect is not retried');
        assert.deepEqual(elsewhere.requests, []);
        // the log says where the request went, by its whole address
        assert.ok(
          logs.some(l => l.startsWith('→ ') && l.includes(`${service.url}${path}`)),
          logs.join('\n'),
        );
      });

  it('a relative Location is said as the address it resolves to; none at all is said too', async () => {
    service.fail({ status: 307, headers: { location: '/v2/elsewhere' } });
    await assert.rejects(new ApiClient(http().o).countTokens(body), (e: unknown) => {
      assert.ok(e instanceof ApiError && e.message.includes(`redirected to ${service.url}/v2/elsewhere`), String(e));
      return true;
    });
    service.fail({ status: 302 });
    await assert.rejects(new ApiClient(http().o).countTokens(body), /a redirect with no Location/);
    assert.equal(service.requests.length, 2);
  });
});
