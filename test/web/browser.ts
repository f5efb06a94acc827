/**
 * A tiny browser for the web pages: a cookie jar, form posts with the page's Origin, and the
 * CSRF token read from the last page's hidden field. Requests go in-process (app.request).
 */
import assert from 'node:assert/strict';
import type { TestService } from '../helpers/service.ts';

export const ORIGIN = 'http://localhost:8080';

export interface Page {
  status: number;
  headers: Headers;
  html: string;
  location: string | null;
  setCookies: string[];
}

export class Browser {
  readonly cookies = new Map<string, string>();

  constructor(private readonly svc: TestService) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private remember(res: Response): string[] {
    const lines = res.headers.getSetCookie();
    for (const line of lines) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === '' || /;\s*max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return lines;
  }

  private async answer(res: Response): Promise<Page> {
    const setCookies = this.remember(res);
    return { status: res.status, headers: res.headers, html: await res.text(), location: res.headers.get('location'), setCookies };
  }

  async get(path: string): Promise<Page> {
    const headers: Record<string, string> = {};
    if (this.cookies.size > 0) headers.cookie = this.cookieHeader();
    return this.answer(await this.svc.app.request(path, { headers }));
  }

  /** A form post; `origin: null` sends no Origin header. */
  async post(path: string, fields: Record<string, string>, options: { origin?: string | null; referer?: string } = {}): Promise<Page> {
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    if (this.cookies.size > 0) headers.cookie = this.cookieHeader();
    const origin = options.origin === undefined ? ORIGIN : options.origin;
    if (origin !== null) headers.origin = origin;
    if (options.referer !== undefined) headers.referer = options.referer;
    return this.answer(await this.svc.app.request(path, { method: 'POST', headers, body: new URLSearchParams(fields).toString() }));
  }

  /** Loads `page` and posts `fields` with the CSRF token found on it. */
  async submit(page: string, action: string, fields: Record<string, string>): Promise<Page> {
    const loaded = await this.get(page);
    assert.equal(loaded.status, 200, `GET ${page}`);
    return this.post(action, { ...fields, csrf: csrfOf(loaded.html) });
  }

  async signUp(email: string, password: string): Promise<Page> {
    const res = await this.submit('/signup', '/signup', { email, password, confirm: password });
    assert.equal(res.status, 303, res.html);
    assert.equal(res.location, '/dashboard');
    return res;
  }

  async logIn(email: string, password: string): Promise<Page> {
    return this.submit('/login', '/login', { email, password });
  }

  /**
   * Creates a key from the dashboard; returns the key, shown once: on the page the post redirects
   * to (POST-redirect-GET), and not on the next load.
   */
  async createKey(name: string, project = ''): Promise<string> {
    const res = await this.submit('/dashboard', '/dashboard/keys', { name, project });
    assert.equal(res.status, 303, res.html);
    assert.equal(res.location, '/dashboard#new-key-notice');
    const shown = await this.get('/dashboard');
    const key = /id="new-key"[^>]*value="(sgk_[a-z2-7]{32})"/.exec(shown.html)?.[1];
    assert.ok(key, 'the new key is on the page');
    const again = await this.get('/dashboard');
    assert.ok(!again.html.includes(key), 'a reload does not show the key again');
    return key;
  }

  /** Creates a project from the dashboard; returns its id (the post leads to its page). */
  async createProject(name: string, url: string, category = ''): Promise<string> {
    const res = await this.submit('/dashboard', '/dashboard/projects', { name, url, category });
    assert.equal(res.status, 303, res.html);
    const id = /^\/projects\/(prj_[a-z2-7]+)$/.exec(res.location ?? '')?.[1];
    assert.ok(id, `redirected to the new project's page, not ${res.location}`);
    return id;
  }
}

export function csrfOf(html: string): string {
  const token = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  assert.ok(token, 'a CSRF field on the page');
  return token;
}

/** The key rows of the dashboard as [name, project, last4, lastUsed] (created is time-dependent). */
export function keyRows(html: string): string[][] {
  const body = /<h2>API keys<\/h2>[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(html)?.[1];
  if (!body) return [];
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) => {
    const cells = [...row[1]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) => c[1]!);
    return [cells[0]!, cells[1]!, cells[2]!, cells[4] === 'never' ? 'never' : 'used'];
  });
}

/** The revoke form actions on the dashboard, in row order. */
export function revokeActions(html: string): string[] {
  return [...html.matchAll(/action="(\/dashboard\/keys\/[^"]+\/revoke)"/g)].map((m) => m[1]!);
}
