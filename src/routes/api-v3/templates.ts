// GitLab 8.13's lib/api/templates.rb: /licenses, /gitignores and /gitlab_ci_ymls, each also under
// /templates/ (8.13's new spelling; the bare one was deprecated there). Public, unpaginated. A licence
// list holds every licence's text; `popular` (true) keeps the featured ones. One licence fills its
// placeholders: the year, `project`, and `fullname` or else the caller's name. Unknown names answer
// `404 License Not Found`, `404 gitignore Not Found`, `404 gitlab_ci_yml Not Found`.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { routeNotFound } from '../../errors.ts';
import { optionalBoolean, optionalString, requestParams } from '../../http/params.ts';
import {
  fileTemplateOr404,
  licenseTemplateOr404,
  listFileTemplates,
  listLicenseTemplates,
  type FileTemplateType,
  type LicenseTemplate,
} from '../../services/templates/file-templates.ts';
import { presentLicense, presentTemplate, presentTemplateName } from '../../presenters/api-v3/template.ts';

const PUBLIC = { config: { public: true } };

/** The `:name` of a route that matches only `[\w.-]+` (8.13's licences, all of v4's), else no route. */
export function templateName(request: FastifyRequest): string {
  const name = (request.params as { name: string }).name;
  if (!/^[\w.-]+$/.test(name)) throw routeNotFound();
  return name;
}

/** One licence with its placeholders filled from `project`, `fullname` (or the caller's name) and the year. */
export function filledLicense(request: FastifyRequest, name: string, resource?: string): LicenseTemplate {
  const params = requestParams(request);
  return licenseTemplateOr404(
    name,
    {
      project: optionalString(params, 'project'),
      fullname: optionalString(params, 'fullname') || request.viewer?.name,
      year: new Date().getUTCFullYear(),
    },
    resource,
  );
}

export function register(app: FastifyInstance, _deps: Deps): void {
  for (const prefix of ['', '/templates']) {
    app.get(`${prefix}/licenses`, PUBLIC, async (request) => {
      // 8.13: `featured: popular.present? ? true : nil`, so false lists every licence too.
      const popular = optionalBoolean(requestParams(request), 'popular');
      return listLicenseTemplates(popular ? true : undefined).map(presentLicense);
    });
    app.get(`${prefix}/licenses/:name`, PUBLIC, async (request) =>
      presentLicense(filledLicense(request, templateName(request))),
    );
    for (const type of ['gitignores', 'gitlab_ci_ymls'] satisfies FileTemplateType[]) {
      app.get(`${prefix}/${type}`, PUBLIC, async () => listFileTemplates(type).map(presentTemplateName));
      app.get(`${prefix}/${type}/:name`, PUBLIC, async (request) =>
        presentTemplate(fileTemplateOr404(type, (request.params as { name: string }).name)),
      );
    }
  }
}
