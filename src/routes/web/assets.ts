// The stylesheet, the script and the icon, served from memory under URLs that carry a hash of their content, so
// they are cached for a year and a new release changes the URL rather than waiting for caches to expire.
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { STYLESHEET } from './assets/stylesheet.ts';
import { COPY_SCRIPT } from './assets/copy-button.ts';
import { BUILD_TRACE_SCRIPT } from './assets/build-trace.ts';
import { CI_STYLESHEET } from './assets/ci-stylesheet.ts';
import { LIVE_REGION_SCRIPT } from './assets/live-region.ts';
import { BOARD_SCRIPT, BOARD_STYLESHEET } from './assets/board.ts';
import { TASK_LIST_SCRIPT } from './assets/task-list.ts';

interface Asset {
  url: string;
  type: string;
  body: Buffer;
}

function asset(name: string, extension: string, type: string, text: string): Asset {
  const body = Buffer.from(text, 'utf8');
  const hash = crypto.createHash('sha256').update(body).digest('hex').slice(0, 16);
  return { url: `/-/assets/${name}-${hash}.${extension}`, type, body };
}

/** A paw on the navbar's colour: without an icon link every page makes the browser ask for /favicon.ico. */
const ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#2b2b3d"/>' +
  '<g fill="#f2c14e"><ellipse cx="16" cy="21" rx="7" ry="6"/><circle cx="8" cy="13" r="3"/><circle cx="13" cy="8" r="3"/>' +
  '<circle cx="19" cy="8" r="3"/><circle cx="24" cy="13" r="3"/></g></svg>';

export const ASSETS = {
  stylesheet: asset(
    'application',
    'css',
    'text/css; charset=utf-8',
    STYLESHEET + CI_STYLESHEET + BOARD_STYLESHEET,
  ),
  script: asset(
    'application',
    'js',
    'text/javascript; charset=utf-8',
    COPY_SCRIPT + BUILD_TRACE_SCRIPT + LIVE_REGION_SCRIPT + BOARD_SCRIPT + TASK_LIST_SCRIPT,
  ),
  icon: asset('favicon', 'svg', 'image/svg+xml', ICON),
};

export function registerAssets(app: FastifyInstance): void {
  for (const { url, type, body } of Object.values(ASSETS)) {
    app.get(url, async (_request, reply) =>
      reply
        .type(type)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .send(body),
    );
  }
}
