/**
 * fetchPublic (fetch.ts): what it fetches, and every way a URL could reach a private address —
 * IP literals in their odd spellings, names that resolve privately, DNS answers that change,
 * redirects — plus its size, time and redirect bounds. A local server stands in for the site; it
 * is reachable only through FETCH_ALLOW_HOSTS, like an intranet site.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { FetchError, fetchPublic, parseAllowHosts, USER_AGENT } from './fetch.ts';

let server: Server;
let base: string;
let allowHosts: Set<string>;
const seen: IncomingMessage[] = [];

function route(req: IncomingMessage, res: ServerResponse): void {
  seen.push(req);
  const path = req.url ?? '/';
  if (path === '/page') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<title>Hello</title>');
  } else if (path === '/gzip') {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
    res.end(gzipSync('compressed hello'));
  } else if (path === '/bomb') {
    // 10 KB on the wire, 5 MB decoded.
    res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
    res.end(gzipSync(Buffer.alloc(5_000_000, 'a')));
  } else if (path === '/big-declared') {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(2_000_000) });
    res.end(Buffer.alloc(2_000_000, 'a'));
  } else if (path === '/big-chunked') {
    res.writeHead(200, { 'content-type': 'text/plain' });
    for (let i = 0; i < 40; i++) res.write(Buffer.alloc(50_000, 'a'));
    res.end();
  } else if (path.startsWith('/redirect-to?')) {
    res.writeHead(302, { location: decodeURIComponent(path.slice('/redirect-to?'.length)) });
    res.end();
  } else if (path === '/loop') {
    res.writeHead(301, { location: '/loop' });
    res.end();
  } else if (path === '/relative') {
    res.writeHead(307, { location: 'page' });
    res.end();
  } else if (path === '/stall') {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('started…');
    // never ends
  } else if (path === '/missing') {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('no such page');
  } else if (path === '/bad-gzip') {
    res.writeHead(200, { 'content-encoding': 'gzip' });
    res.end('this is not gzip');
  } else {
    res.writeHead(500);
    res.end();
  }
}

before(async () => {
  server = createServer(route);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
  allowHosts = parseAllowHosts(`127.0.0.1:${port}`);
});
after(() => {
  server.closeAllConnections();
  server.close();
});

const fetchAllowed = (path: string, options: Parameters<typeof fetchPublic>[1] = {}) => fetchPublic(`${base}${path}`, { allowHosts, ...options });

async function refused(promise: Promise<unknown>, reason: FetchError['reason'], message?: RegExp): Promise<void> {
  await assert.rejects(promise, (err: unknown) => {
    assert.ok(err instanceof FetchError, `expected a FetchError, got ${String(err)}`);
    assert.equal(err.reason, reason, err.message);
    if (message) assert.match(err.message, message);
    return true;
  });
}

/** A resolver that answers `addresses` in turn (the last one from then on), counting its calls. */
function fakeDns(...addresses: string[]): LookupFunction & { calls: number } {
  const lookup = ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    const address = addresses[Math.min(lookup.calls, addresses.length - 1)]!;
    lookup.calls += 1;
    const family = address.includes(':') ? 6 : 4;
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as LookupFunction & { calls: number };
  lookup.calls = 0;
  return lookup;
}

describe('fetchPublic: happy paths', () => {
  test('fetches an allowed host, names the service in User-Agent, and returns any status', async () => {
    const page = await fetchAllowed('/page');
    assert.equal(page.status, 200);
    assert.equal(page.body.toString(), '<title>Hello</title>');
    assert.equal(seen.at(-1)!.headers['user-agent'], USER_AGENT);
    assert.match(USER_AGENT, /^project-signals-service\/\d+\.\d+\.\d+$/);
    const missing = await fetchAllowed('/missing');
    assert.equal(missing.status, 404);
  });

  test('decompresses gzip and follows relative redirects, reporting the final URL', async () => {
    assert.equal((await fetchAllowed('/gzip')).body.toString(), 'compressed hello');
    const moved = await fetchAllowed('/relative');
    assert.equal(moved.url, `${base}/page`);
    assert.equal(moved.body.toString(), '<title>Hello</title>');
  });
});

describe('fetchPublic: refuses private addresses', () => {
  for (const url of [
    'http://127.0.0.1/',
    'http://localhost/',
    'http://2130706433/',
    'http://0177.0.0.1/',
    'http://0x7f.1/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00:ec2::254]/',
    'http://10.0.0.1/',
    'http://192.168.1.1/',
    'http://172.16.0.1/',
    'http://100.64.0.1/',
    'http://0.0.0.0/',
    'http://[::]/',
  ]) {
    test(`refuses ${url}`, async () => {
      await refused(fetchPublic(url, { timeoutMs: 3_000 }), 'address', /not a public address/);
    });
  }

  test('the allowed test host on another port is not allowed', async () => {
    const port = Number(new URL(base).port) === 65_535 ? 65_534 : Number(new URL(base).port) + 1;
    await refused(fetchPublic(`http://127.0.0.1:${port}/`, { allowHosts }), 'address');
  });

  test('a name that resolves to a private address is refused after resolution', async () => {
    const dns = fakeDns('127.0.0.1');
    await refused(fetchPublic(`http://intranet.example.com:${new URL(base).port}/page`, { lookup: dns }), 'address', /intranet\.example\.com is not a public address \(127\.0\.0\.1/);
    assert.equal(dns.calls, 1);
  });

  test('an IPv4-mapped IPv6 answer is refused too', async () => {
    await refused(fetchPublic(`http://mapped.example.com:${new URL(base).port}/`, { lookup: fakeDns('::ffff:127.0.0.1') }), 'address');
  });

  test('DNS that answers public first and private later: the connection uses the answer it checked, once', async () => {
    const before = seen.length;
    // 198.51.100.7 (TEST-NET-2) is never routed here; were a second lookup made for the connection, it
    // would answer 127.0.0.1 and reach the local server.
    const dns = fakeDns('198.51.100.7', '127.0.0.1');
    await assert.rejects(fetchPublic(`http://rebind.example.com:${new URL(base).port}/page`, { lookup: dns, timeoutMs: 1_500 }), FetchError);
    assert.equal(dns.calls, 1);
    assert.equal(seen.length, before, 'the local server must not have been reached');
  });

  test('a redirect from an allowed host to a private address is refused', async () => {
    const port = Number(new URL(base).port);
    await refused(fetchAllowed(`/redirect-to?${encodeURIComponent(`http://127.0.0.2:${port}/page`)}`), 'address');
    await refused(fetchAllowed(`/redirect-to?${encodeURIComponent('http://[::ffff:169.254.169.254]/')}`), 'address');
  });
});

describe('fetchPublic: errors and bounds', () => {
  test('only http(s) URLs without credentials', async () => {
    await refused(fetchPublic('file:///etc/passwd'), 'url', /only http and https/);
    await refused(fetchPublic('ftp://example.com/'), 'url');
    await refused(fetchPublic('not a url'), 'url', /is not a URL/);
    await refused(fetchPublic('http://user:secret@example.com/'), 'url', /user name or password/);
    await refused(fetchAllowed(`/redirect-to?${encodeURIComponent('file:///etc/passwd')}`), 'url');
  });

  test('too many redirects', async () => {
    await refused(fetchAllowed('/loop', { maxRedirects: 3 }), 'redirects', /more than 3 redirects/);
  });

  test('bodies over the bound, declared, chunked or compressed', async () => {
    await refused(fetchAllowed('/big-declared'), 'too-large', /2000000 bytes/);
    await refused(fetchAllowed('/big-chunked'), 'too-large');
    await refused(fetchAllowed('/bomb'), 'too-large');
    assert.equal((await fetchAllowed('/big-chunked', { maxBytes: 3_000_000 })).body.length, 2_000_000);
  });

  test('a server that stops mid-answer times out', async () => {
    await refused(fetchAllowed('/stall', { timeoutMs: 300 }), 'timeout', /within 0\.3 s/);
  });

  test('a body that does not decompress', async () => {
    await refused(fetchAllowed('/bad-gzip'), 'network', /does not decompress/);
  });

  test('FETCH_ALLOW_HOSTS entries must be host:port', () => {
    assert.deepEqual([...parseAllowHosts(' Intranet.local:8080 , [::1]:9000,')], ['intranet.local:8080', '[::1]:9000']);
    assert.throws(() => parseAllowHosts('intranet.local'), /not host:port/);
  });
});
