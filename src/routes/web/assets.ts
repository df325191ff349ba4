// The stylesheet and the script, served from memory under URLs that carry a hash of their content, so
// they are cached for a year and a new release changes the URL rather than waiting for caches to expire.
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { STYLESHEET } from './assets/stylesheet.ts';
import { COPY_SCRIPT } from './assets/copy-button.ts';
import { BUILD_TRACE_SCRIPT } from './assets/build-trace.ts';
import { CI_STYLESHEET } from './assets/ci-stylesheet.ts';
import { LIVE_REGION_SCRIPT } from './assets/live-region.ts';

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

export const ASSETS = {
  stylesheet: asset('application', 'css', 'text/css; charset=utf-8', STYLESHEET + CI_STYLESHEET),
  script: asset(
    'application',
    'js',
    'text/javascript; charset=utf-8',
    COPY_SCRIPT + BUILD_TRACE_SCRIPT + LIVE_REGION_SCRIPT,
  ),
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
