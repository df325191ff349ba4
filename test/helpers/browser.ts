// Debian's Chromium driven by playwright-core, for the few tests that need a real browser. A machine
// without Chromium skips them with one line; under CI=true a missing browser fails instead (.ci/run
// installs it), so CI never goes green without browser coverage.
import fs from 'node:fs';
import axe from 'axe-core';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startTestApp, type TestApp } from './app.ts';
import { listen } from './git.ts';

export const chromiumPath = process.env.LABRADOR_CHROMIUM ?? '/usr/bin/chromium';

/** Undefined when the browser is there; else the reason to skip (throws under CI=true). */
export function browserMissing(): string | undefined {
  if (fs.existsSync(chromiumPath)) return undefined;
  const reason = `no Chromium at ${chromiumPath} (apt-get install chromium, or set LABRADOR_CHROMIUM)`;
  if (process.env.CI === 'true') throw new Error(`browser tests need Chromium under CI: ${reason}`);
  console.log(`# skipping browser tests: ${reason}`);
  return reason;
}

export function launchBrowser(): Promise<Browser> {
  // Playwright adds --headless, --no-sandbox, a temporary profile and no background networking itself.
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    timeout: 60_000,
    args: ['--disable-gpu', '--disable-quic', '--disable-sync'],
  });
}

/** A test app listening on a port for Chromium, launched beside it; close() ends both. */
export interface BrowserApp {
  t: TestApp;
  /** http://127.0.0.1:<port> */
  base: string;
  browser: Browser;
  close(): Promise<void>;
}

/**
 * The set-up of a browser test file: the app and Chromium start side by side (each takes seconds of
 * waiting on a loaded machine), once per file; each test opens a context of its own for isolation.
 */
export async function startBrowserApp(env: Record<string, string> = {}): Promise<BrowserApp> {
  const [app, launched] = await Promise.allSettled([startTestApp(env), launchBrowser()]);
  if (app.status === 'rejected' || launched.status === 'rejected') {
    if (app.status === 'fulfilled') await app.value.close();
    if (launched.status === 'fulfilled') await launched.value.close();
    throw app.status === 'rejected' ? app.reason : (launched as PromiseRejectedResult).reason;
  }
  const t = app.value;
  const browser = launched.value;
  return {
    t,
    base: await listen(t),
    browser,
    close: async () => {
      await browser.close();
      await t.close();
    },
  };
}

/** Signs in through the sign-in form and waits for the dashboard it leads to. */
export async function signIn(page: Page, login: string, password: string): Promise<void> {
  await page.goto('/users/sign_in');
  await page.getByLabel('Username or Email').fill(login);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Projects' }).waitFor();
}

/** A context that reaches only the test server on loopback (no CDN, no Gravatar). */
export async function newContext(browser: Browser, baseURL: string): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 1280, height: 800 },
    acceptDownloads: true,
  });
  context.setDefaultTimeout(20_000);
  await context.route(
    (url) => url.hostname !== '127.0.0.1',
    (route) => route.abort(),
  );
  return context;
}

/** What a page did that it never should: dialogs (alert/confirm/prompt), console errors, page errors. */
export function watchForScript(page: Page): string[] {
  const seen: string[] = [];
  page.on('dialog', (dialog) => {
    seen.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('console', (message) => {
    if (message.type() === 'error' && !/favicon/.test(message.location().url))
      seen.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => seen.push(`pageerror: ${error.message}`));
  return seen;
}

/**
 * A context for axe audits: it bypasses the pages' CSP (axe is a script, which the pages rightly refuse)
 * and loads axe into every page as it opens. axe goes to Chromium once per context this way; injected
 * into each page after it loaded, its half a megabyte was sent and compiled anew per page, which took
 * more than half of each audit.
 */
export async function newAuditContext(browser: Browser, baseURL: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, bypassCSP: true });
  await context.addInitScript({ content: axe.source });
  return context;
}

/**
 * axe-core's serious and critical WCAG 2 A/AA violations on the page as it is now, one line each (the
 * page must be one of a context from newAuditContext).
 */
export async function seriousAxeViolations(page: Page, url: string): Promise<string[]> {
  const result = await page.evaluate(() => {
    const loaded = (window as unknown as { axe?: typeof axe }).axe;
    if (!loaded) throw new Error('axe is not loaded: audit in a context from newAuditContext');
    return loaded.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } });
  });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${url}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
