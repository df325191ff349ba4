// A build's artifacts archive as a download, the same headers for the API and the runner protocol; the
// archive is streamed from storage.
import type { FastifyReply } from 'fastify';
import type { ArtifactsDownload } from '../views/build-views.ts';

export function sendArtifacts(reply: FastifyReply, artifacts: ArtifactsDownload) {
  return reply
    .type('application/octet-stream')
    .header('Content-Disposition', `attachment; filename=${artifacts.filename}`)
    .header('Content-Transfer-Encoding', 'binary')
    .header('Content-Length', String(artifacts.size))
    .send(artifacts.stream);
}
