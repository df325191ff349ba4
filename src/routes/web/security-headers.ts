// The headers every page carries, and the stricter policy of raw files (project-pages.tsx).
import type { FastifyReply } from 'fastify';

/** No inline script anywhere; styles and scripts only from our own files; no framing. */
const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export function securityHeaders(reply: FastifyReply, csp = PAGE_CSP): void {
  reply.header('content-security-policy', csp);
  reply.header('x-frame-options', 'DENY');
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'strict-origin-when-cross-origin');
}
