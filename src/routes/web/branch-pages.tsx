// …/branches at GitLab 8.13's paths: the list (with each branch's newest pipeline, a merge request link,
// compare and delete), the new branch form (`branch_name`, `ref`; POST …/branches) and the delete button
// (8.13's DELETE …/branches/:id, here POST …/branches/delete with the name in `id`). Writes go through
// the API's branch services as pushes by the viewer, so push rules, protection, events and hooks follow;
// a refusal (protected, default, unknown) is shown on the page and nothing changes.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { projectFullPath, refPath } from '../../domain/paths.ts';
import type { Deps } from '../../deps.ts';
import { optionalString, requestParams } from '../../http/params.ts';
import { ApiError } from '../../errors.ts';
import type { LoadedProject } from '../../http/loaders.ts';
import { canReadPipelines } from '../../policies/ci.ts';
import { createBranch, deleteBranch } from '../../services/repository/branch-changes.ts';
import { newestPipelinesOfRefs } from '../../views/ci-page-views.ts';
import { branchList } from '../../views/branch-views.ts';
import { RefsPage } from '../../presenters/html/repository.tsx';
import { NewBranchPage, type NewBranchValues } from '../../presenters/html/repository-forms.tsx';
import type { Flash } from '../../presenters/html/layout.tsx';
import { loadProjectHead } from './project-head.ts';
import { loadWritableProject } from './repository-loaders.ts';
import { loadPageProject } from '../../http/loaders.ts';
import { pageContext } from './web-session.ts';
import { sendPage } from './render.ts';
import { doneNotice, errorTexts, isFormRefusal } from './form-errors.ts';

const BRANCH_NOTICES: Record<string, string> = {
  deleted: 'The branch was deleted.',
};

export function registerBranchPages(web: FastifyInstance, deps: Deps): void {
  const showBranches = async (
    request: FastifyRequest,
    reply: FastifyReply,
    loaded: LoadedProject,
    flash: Flash | null,
    status = 200,
  ) => {
    const [project, branches] = await Promise.all([loadProjectHead(deps, loaded), branchList(deps, loaded)]);
    const pipelines = canReadPipelines(loaded.access, loaded.project)
      ? await newestPipelinesOfRefs(
          deps,
          loaded,
          branches.map((branch) => branch.name),
        )
      : undefined;
    return sendPage(
      reply,
      <RefsPage
        ctx={pageContext(deps, request, reply)}
        project={project}
        kind="branches"
        refs={branches}
        pipelines={pipelines}
        flash={flash}
      />,
      status,
    );
  };

  const showNewBranch = async (
    request: FastifyRequest,
    reply: FastifyReply,
    loaded: LoadedProject,
    values: NewBranchValues,
    errors: string[] = [],
  ) =>
    sendPage(
      reply,
      <NewBranchPage
        ctx={pageContext(deps, request, reply)}
        project={await loadProjectHead(deps, loaded)}
        values={values}
        errors={errors}
      />,
      errors.length > 0 ? 422 : 200,
    );

  web.get('/:namespace/:project/branches', async (request, reply) => {
    const loaded = await loadPageProject(deps, request);
    return showBranches(request, reply, loaded, doneNotice(request, BRANCH_NOTICES));
  });

  web.get('/:namespace/:project/branches/new', async (request, reply) => {
    const pusher = await loadWritableProject(deps, request);
    const params = requestParams(request);
    return showNewBranch(request, reply, pusher, {
      branchName: optionalString(params, 'branch_name') ?? '',
      ref: optionalString(params, 'ref') ?? pusher.project.default_branch ?? 'master',
    });
  });

  web.post('/:namespace/:project/branches', async (request, reply) => {
    const pusher = await loadWritableProject(deps, request);
    const params = requestParams(request);
    const values = {
      branchName: (optionalString(params, 'branch_name') ?? '').trim(),
      ref: (optionalString(params, 'ref') ?? '').trim() || (pusher.project.default_branch ?? 'master'),
    };
    if (values.branchName === '') {
      return showNewBranch(request, reply, pusher, values, ["Branch name can't be blank"]);
    }
    try {
      const { branch } = await createBranch(deps, pusher, values.branchName, values.ref);
      return reply.redirect(refPath(projectFullPath(pusher), 'tree', branch.name), 302);
    } catch (error) {
      if (!isFormRefusal(error)) throw error;
      return showNewBranch(request, reply, pusher, values, errorTexts(error));
    }
  });

  web.post('/:namespace/:project/branches/delete', async (request, reply) => {
    const pusher = await loadWritableProject(deps, request);
    const name = optionalString(requestParams(request), 'id') ?? '';
    try {
      await deleteBranch(deps, pusher, name);
    } catch (error) {
      // The API's 404 (no such branch, deleted meanwhile) is a refusal here too, like its 405s.
      if (!(error instanceof ApiError) || (error.status !== 404 && !isFormRefusal(error))) throw error;
      const text = errorTexts(error).join(' ');
      return showBranches(request, reply, pusher, { kind: 'alert', text }, 422);
    }
    return reply.redirect(`/${pusher.namespace.path}/${pusher.project.path}/branches?done=deleted`, 302);
  });
}
