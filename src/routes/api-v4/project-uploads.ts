// v4's POST /projects/:id/uploads (lib/api/projects.rb): a multipart `file` stored as v3 stores it,
// 201 {alt, url, full_path, markdown}; `full_path` is where the project's page serves it. Anyone who
// may read the project may upload, as GitLab asked only read_project.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadProject } from '../../http/loaders.ts';
import { presentUploadLink } from '../../presenters/api-v3/upload.ts';
import { storeUploadedFile } from '../api-v3/uploads.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  app.post('/projects/:id/uploads', { config: { multipartStream: true } }, async (request, reply) => {
    requireViewer(request);
    const loaded = await loadProject(deps, request);
    const stored = await storeUploadedFile(deps, request, loaded);
    const link = presentUploadLink(stored.secret, stored.filename);
    const fullPath = `/${loaded.namespace.path}/${loaded.project.path}${link.url}`;
    return reply
      .status(201)
      .send({ alt: link.alt, url: link.url, full_path: fullPath, markdown: link.markdown });
  });
}
