// Debian's Chromium driven by playwright-core, for the few tests that need a real browser. A machine
// without Chromium skips them with one line; under CI=true a missing browser fails instead (.ci/run
// installs it), so CI never goes green without browser coverage.
import fs from 'node:fs';
import axe from 'axe-core';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

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
 * axe-core's serious and critical WCAG 2 A/AA violations on the page as it is now, one line each (the
 * page's context must bypass CSP: axe is injected as a script, which the pages rightly refuse).
 */
export async function seriousAxeViolations(page: Page, url: string): Promise<string[]> {
  await page.addScriptTag({ content: axe.source });
  const result = await page.evaluate(() =>
    (window as unknown as { axe: typeof axe }).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] },
    }),
  );
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${url}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
