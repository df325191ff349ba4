// POST /ci/lint (GitLab 8.15–9.x): posted .gitlab-ci.yml content checked by the pipelines' parser;
// 400 `content is missing` without it (9.x's Grape `requires`). Local includes have no repository to come from here.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { paramsMissing } from '../../errors.ts';
import { requestParams } from '../../http/params.ts';
import { lintContent } from '../../views/ci-lint-views.ts';
import { presentLintV3 } from '../../presenters/api-v3/ci-lint.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  // Anyone may lint content: it reads nothing of the instance.
  app.post('/ci/lint', { config: { public: true } }, async (request) => {
    const content = requestParams(request).content;
    if (typeof content !== 'string' || content === '') throw paramsMissing('content');
    return presentLintV3(await lintContent(deps, request.viewer, content));
  });
}
