// A cookie-keeping client for the pages, over the real app's inject: what a browser without script
// would do (follow nothing automatically, send its cookies, post forms with the page's form token).
import assert from 'node:assert/strict';
import type { TestApp } from './app.ts';

export interface PageResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  text: string;
}

export class WebClient {
  readonly cookies = new Map<string, string>();
  /** The form token of the last page read (its csrf-token meta tag). */
  csrf = '';

  constructor(
    private readonly t: TestApp,
    private readonly address = '127.0.0.1',
    /** Sent with every request (an X-Forwarded-For a proxy adds). */
    private readonly extraHeaders: Record<string, string> = {},
  ) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private keep(headers: PageResponse['headers']): void {
    const raw = headers['set-cookie'];
    const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [String(raw)];
    for (const line of list) {
      const [pair, ...attributes] = line.split(';');
      const equals = pair.indexOf('=');
      const name = pair.slice(0, equals).trim();
      const value = pair.slice(equals + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async request(method: string, url: string, form?: Record<string, string>): Promise<PageResponse> {
    const headers: Record<string, string> = { ...this.extraHeaders, cookie: this.cookieHeader() };
    let payload: string | undefined;
    if (form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(form).toString();
    }
    const response = await this.t.server.app.inject({
      method: method as 'GET',
      url,
      headers,
      payload,
      remoteAddress: this.address,
    });
    this.keep(response.headers);
    const meta = /<meta name="csrf-token" content="([^"]*)"/.exec(response.body);
    if (meta) this.csrf = meta[1];
    return { status: response.statusCode, headers: response.headers, text: response.body };
  }

  get(url: string): Promise<PageResponse> {
    return this.request('GET', url);
  }

  /** Posts a form with the last page's token (unless the form names its own). */
  post(url: string, form: Record<string, string> = {}): Promise<PageResponse> {
    return this.request('POST', url, { authenticity_token: this.csrf, ...form });
  }

  async signIn(login: string, password: string): Promise<PageResponse> {
    await this.get('/users/sign_in');
    return this.post('/users/sign_in', { 'user[login]': login, 'user[password]': password });
  }
}

/** A client signed in as `user` through the sign-in form (which answers with its redirect). */
export async function signedInClient(
  t: TestApp,
  user: { username: string; password: string },
): Promise<WebClient> {
  const web = new WebClient(t);
  const answer = await web.signIn(user.username, user.password);
  assert.equal(answer.status, 302, `sign-in of ${user.username}: ${answer.status}`);
  return web;
}
