import assert from 'node:assert/strict';
import { test } from 'node:test';
import { projectUrlKey, sameProjectUrl } from './project-url.ts';

test('one project URL however it is written: scheme and host case, www., trailing slash, query, fragment', () => {
  const same = ['https://acme.com', 'HTTPS://ACME.com/', 'https://www.acme.com', 'https://acme.com/?ref=hn', 'https://acme.com/#pricing', 'https://acme.com:443/'];
  for (const url of same) assert.equal(projectUrlKey(url), 'https://acme.com', url);
});

test('what still tells two projects apart: the scheme, the path (with its case), the port, another subdomain', () => {
  assert.equal(sameProjectUrl('https://acme.com', 'http://acme.com'), false);
  assert.equal(sameProjectUrl('https://acme.com/app', 'https://acme.com/docs'), false);
  assert.equal(sameProjectUrl('https://acme.com/App', 'https://acme.com/app'), false);
  assert.equal(sameProjectUrl('https://acme.com:8443', 'https://acme.com'), false);
  assert.equal(sameProjectUrl('https://app.acme.com', 'https://acme.com'), false);
  assert.equal(sameProjectUrl('https://acme.com/app/', 'https://www.acme.com/app'), true);
});

test('text that is not a URL is compared loosely rather than throwing', () => {
  assert.equal(projectUrlKey(' Acme.com/ '), 'acme.com');
});
