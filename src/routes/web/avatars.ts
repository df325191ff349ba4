// GET /uploads/<user|project|group>/avatar/:id/:filename: an uploaded avatar, at the path GitLab 8.13
// served it from. A user's is public; a project's or a group's is shown to who may read it (else 404).
// A stored avatar never changes in place (a new upload is a new name or a new mtime), so answers carry
// an ETag and may be kept an hour; a matching If-None-Match is 304.
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../errors.ts';
import { pathId } from '../../http/params.ts';
import { loadGroupById, readableProjectByIdParam } from '../../http/loaders.ts';
import type { AvatarOwner } from '../../domain/paths.ts';
import { findAvatar } from '../../storage/avatars.ts';
import { uploadContentType } from '../../storage/uploads.ts';

const OWNERS = new Set<AvatarOwner>(['user', 'project', 'group']);

export function registerAvatars(web: FastifyInstance, deps: Deps): void {
  web.get('/uploads/:owner/avatar/:id/:filename', async (request, reply) => {
    const params = request.params as { owner: string; id: string; filename: string };
    const owner = params.owner as AvatarOwner;
    const id = pathId(params.id);
    if (!OWNERS.has(owner) || id === undefined) throw notFound();
    let shared = owner === 'user';
    if (owner === 'project') {
      const record = await readableProjectByIdParam(deps, request.viewer, String(id));
      if (!record) throw notFound('Project');
      shared = record.project.visibility_level === 20;
    } else if (owner === 'group') {
      const { group } = await loadGroupById(deps, request.viewer, id);
      shared = group.visibility_level === 20;
    }
    const file = await findAvatar(deps.config.dataDir, owner, id, params.filename);
    if (!file) throw notFound();
    const etag = `"${file.size.toString(16)}-${file.mtime.getTime().toString(16)}"`;
    reply
      .header('ETag', etag)
      .header('Cache-Control', `${shared ? 'public' : 'private'}, max-age=3600`)
      .header('X-Content-Type-Options', 'nosniff');
    if (request.headers['if-none-match'] === etag) return reply.status(304).send();
    return reply
      .type(uploadContentType(params.filename))
      .header('Content-Length', String(file.size))
      .send(fs.createReadStream(file.path));
  });
}
