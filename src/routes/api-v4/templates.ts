// v4's lib/api/templates.rb and project_templates.rb: /templates/licenses, /gitignores,
// /gitlab_ci_ymls and /dockerfiles, public and paginated. Lists of the three file kinds hold
// `{key, name}`; the licence list holds whole licences, `popular` true keeping the featured ones and
// false the others. /projects/:id/templates/:type lists any of the four kinds as `{key, name}` for a
// project the caller may read, and /:name answers a licence (filled) or a template. The repository's own
// issue and merge request templates are not kept, so those two types are refused as unknown values.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { notFound, paramValueInvalid } from '../../errors.ts';
import { loadProject } from '../../http/loaders.ts';
import { paginateLoaded } from '../../http/pagination.ts';
import { optionalBoolean, requestParams } from '../../http/params.ts';
import {
  fileTemplateOr404,
  isTemplateType,
  listLicenseTemplates,
  listTemplateEntries,
  type FileTemplateType,
  type TemplateType,
} from '../../services/templates/file-templates.ts';
import { presentLicense, presentTemplate, presentTemplateEntry } from '../../presenters/api-v4/template.ts';
import { filledLicense, templateName } from '../api-v3/templates.ts';

const PUBLIC = { config: { public: true } };

function templateType(request: FastifyRequest): TemplateType {
  const type = (request.params as { type: string }).type;
  if (!isTemplateType(type)) throw paramValueInvalid('type');
  return type;
}

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;
  app.get('/templates/licenses', PUBLIC, async (request, reply) => {
    const popular = optionalBoolean(requestParams(request), 'popular');
    return paginateLoaded(request, reply, baseUrl, listLicenseTemplates(popular).map(presentLicense));
  });
  app.get('/templates/licenses/:name', PUBLIC, async (request) =>
    presentLicense(filledLicense(request, templateName(request))),
  );
  for (const type of ['gitignores', 'gitlab_ci_ymls', 'dockerfiles'] satisfies FileTemplateType[]) {
    app.get(`/templates/${type}`, PUBLIC, async (request, reply) =>
      paginateLoaded(request, reply, baseUrl, listTemplateEntries(type).map(presentTemplateEntry)),
    );
    app.get(`/templates/${type}/:name`, PUBLIC, async (request) =>
      presentTemplate(fileTemplateOr404(type, templateName(request))),
    );
  }

  app.get('/projects/:id/templates/:type', PUBLIC, async (request, reply) => {
    const type = templateType(request);
    await loadProject(deps, request);
    return paginateLoaded(request, reply, baseUrl, listTemplateEntries(type).map(presentTemplateEntry));
  });
  app.get('/projects/:id/templates/:type/:name', PUBLIC, async (request) => {
    const type = templateType(request);
    await loadProject(deps, request);
    const name = (request.params as { name: string }).name;
    if (!/^[\w%.+-]+$/.test(name)) throw notFound('Template');
    if (type === 'licenses') return presentLicense(filledLicense(request, name, 'Template'));
    return presentTemplate(fileTemplateOr404(type, name, 'Template'));
  });
}
