/**
 * What an OAuth access token costs on the MCP endpoint compared with an API key, measured in the
 * same run on the same data (a ratio, so a noisy machine shifts both sides alike): N sequential
 * in-process `tools/call project_list` requests with each credential, after a warm-up.
 *
 *   node --import tsx bench/oauth.ts [--requests 2000] [--dialect sqlite|postgres]
 *
 * The OAuth side pays for the JWT signature check (EdDSA) and the grant query (`liveGrant`);
 * the API-key side for its hash lookup.
 */
import { parseArgs } from 'node:util';
import { connectClient, mcpCall, signedUpBrowser } from '../test/helpers/oauth.ts';
import { startService } from '../test/helpers/service.ts';
import type { Dialect } from '../src/store/db.ts';

const { values } = parseArgs({ options: { requests: { type: 'string', default: '2000' }, dialect: { type: 'string', default: 'sqlite' } } });
const N = Number(values.requests);
process.env.NODE_ENV ??= 'test';

const svc = await startService(values.dialect as Dialect, { web: true });
try {
  const b = await signedUpBrowser(svc, 'bench@example.com');
  await b.createProject('Bench', 'https://bench.example.com');
  const key = await b.createKey('bench');
  const { tokens } = await connectClient(svc, b, { email: 'bench@example.com', password: 'correct horse' });

  const run = async (token: string) => {
    for (let i = 0; i < Math.min(200, N); i++) await mcpCall(svc, token); // warm-up
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < N; i++) {
      const res = await mcpCall(svc, token);
      if (res.status !== 200) throw new Error(`status ${res.status}`);
    }
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    return { rps: N / (ms / 1000), cpuMicros: (cpu.user + cpu.system) / N };
  };
  // Alternate the order so neither side always runs on a warmer process.
  const keyA = await run(key);
  const oauthA = await run(tokens.access_token);
  const oauthB = await run(tokens.access_token);
  const keyB = await run(key);
  const apiKey = { rps: (keyA.rps + keyB.rps) / 2, cpuMicros: (keyA.cpuMicros + keyB.cpuMicros) / 2 };
  const oauth = { rps: (oauthA.rps + oauthB.rps) / 2, cpuMicros: (oauthA.cpuMicros + oauthB.cpuMicros) / 2 };
  console.log(`MCP tools/call project_list, ${N} sequential in-process requests per run, ${values.dialect}`);
  console.log(`API key:      ${apiKey.rps.toFixed(0)} req/s, ${apiKey.cpuMicros.toFixed(0)} µs CPU/req`);
  console.log(`OAuth (JWT):  ${oauth.rps.toFixed(0)} req/s, ${oauth.cpuMicros.toFixed(0)} µs CPU/req`);
  console.log(`OAuth / API key: ${(oauth.rps / apiKey.rps).toFixed(2)}× req/s, ${(oauth.cpuMicros / apiKey.cpuMicros).toFixed(2)}× CPU per request`);
} finally {
  await svc.close();
}
