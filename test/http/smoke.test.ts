import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS } from '../helpers/database.ts';
import { startService, type TestService } from '../helpers/service.ts';

for (const dialect of DIALECTS) {
  describe(`smoke over a real socket (${dialect})`, () => {
    let svc: TestService;
    let base: string;
    before(async () => {
      svc = await startService(dialect);
      base = await svc.listen();
    });
    after(() => svc.close());

    test('project.list answers over HTTP with a Request-Id', async () => {
      const res = await fetch(`${base}/api/v1/invoke`, {
        method: 'POST',
        headers: { authorization: `Bearer ${svc.keys.alice}`, 'content-type': 'application/json' },
        body: JSON.stringify({ capability: 'project.list' }),
      });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('request-id') ?? '', /^req_[0-9a-f]{24}$/);
      const body = await res.json();
      assert.deepEqual(body.data.projects.map((p: { id: string }) => p.id), ['prj_alpha', 'prj_beta']);
    });
  });
}
