// /<namespace>/<project>/merge_requests… at GitLab 8.13's paths: the list, one merge request with its
// discussion, commits and changes tabs, the new and edit forms, and the Merge, close and reopen
// buttons; and the merge request side of the comment form's POST …/notes (note-pages.ts). Reads go through the API's merge request views, writes through the same services as POST
// and PUT …/merge_requests and PUT …/merge, with their checks: a refused merge is shown on the page and
// writes nothing. A project whose merge requests the viewer may not read answers 404 (or sign in).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { loadMergeRequestByIid, loadPageProject, type LoadedProject } from '../../http/loaders.ts';
import { optionalString, optionalStringList, requestParams, type Params } from '../../http/params.ts';
import { ApiError, forbidden, notFound } from '../../errors.ts';
import { canReadBuilds } from '../../policies/ci.ts';
import {
  canReadMergeRequests,
  canUpdateMergeRequest,
  canWriteMergeRequests,
} from '../../policies/merge-requests.ts';
import {
  createMergeRequest,
  updateMergeRequestFields,
} from '../../services/merge-requests/merge-requests.ts';
import { checkMergeStatus, mergeMergeRequest } from '../../services/merge-requests/merge.ts';
import { cancelMergeWhenBuildSucceeds } from '../../services/merge-requests/merge-when-build-succeeds.ts';
import { pipelineBuilds, pipelinesWithStages } from '../../views/ci-page-views.ts';
import { mergeRequestPipelines } from '../../views/merge-request-views.ts';
import { mergeRequestIssuable, mergeRequestNoteable } from '../../services/merge-requests/collaboration.ts';
import { MERGE_REQUEST } from '../../domain/types.ts';
import { mayAward, mergeRequestAwardable } from '../../services/issues/award-emoji.ts';
import { viewerAwards } from '../../views/note-views.ts';
import { registerVoteAndSubscriptionRoutes } from './award-pages.ts';
import { mayPushToBranch } from '../../services/push/push-setup.ts';
import { loadProjectHead } from './project-head.ts';
import { findMergeRequestOfProject, loadMergeRequestView } from '../../views/merge-request-views.ts';
import { presentMergeRequest } from '../../presenters/api-v3/merge-request.ts';
import { mergeRequestGitCommits } from '../../services/merge-requests/closing-issues.ts';
import {
  branchNames,
  mergeRequestDiffFiles,
  MERGE_REQUEST_TABS,
  mergeRequestCiView,
  mergeRequestListView,
  type MergeRequestTabState,
} from '../../views/merge-request-pages.ts';
import {
  MergeRequestFormPage,
  MergeRequestListPage,
  MergeRequestPage,
  type MergeRequestFormValues,
  type MergeRequestTab,
} from '../../presenters/html/merge-requests.tsx';
import type { Flash } from '../../presenters/html/layout.tsx';
import type { MergeRequestRow, UserRow } from '../../db/types.ts';
import { pageContext } from './web-session.ts';
import {
  issuableListFilters,
  issuableListQuery,
  milestoneAndLabelInput,
  positiveInteger,
  signedIn,
} from './page-params.ts';
import { sendPage } from './render.ts';
import { errorTexts, isFormRefusal } from './form-errors.ts';
import type { CommentTargets } from './note-pages.ts';
import { issueChoices, noteThread, pageReferences } from '../../views/issue-pages.ts';
import { sendTaskAnswer, taskChange, wantsJson } from './task-params.ts';
import { tickedDescription } from '../../services/issues/tasks.ts';

const PER_PAGE = 20;

/** The merge service's refusals in words (the API answers them as bare status codes). */
const MERGE_REFUSALS: Record<number, string> = {
  401: 'You are not allowed to merge into the target branch (it may be protected).',
  405: 'This merge request cannot be merged: it is not open, is a work in progress, has conflicts, or has nothing to merge.',
  406: 'This merge request cannot be merged: there are conflicts.',
  409: 'The source branch changed since this page was loaded; review the new commits and merge again.',
};

function formValues(params: Params, defaultTarget = ''): MergeRequestFormValues {
  return {
    sourceBranch: optionalString(params, 'merge_request[source_branch]') ?? '',
    targetBranch: optionalString(params, 'merge_request[target_branch]') ?? defaultTarget,
    title: optionalString(params, 'merge_request[title]') ?? '',
    description: optionalString(params, 'merge_request[description]') ?? '',
    milestoneId: optionalString(params, 'merge_request[milestone_id]') ?? '',
    labelIds: optionalStringList(params, 'merge_request[label_ids]') ?? [],
  };
}

/** `fix-login_page` → `Fix login page` (Rails' titleize.humanize as 8.13's BuildService used it). */
function titleFromBranch(branch: string): string {
  const words = branch
    .replace(/[-_/]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Registers the merge request pages; answers how the notes route reaches a merge request. */
export function registerMergeRequestPages(web: FastifyInstance, deps: Deps): CommentTargets {
  const loadMergeRequestsProject = (request: FastifyRequest): Promise<LoadedProject> =>
    loadPageProject(deps, request, (loaded) => canReadMergeRequests(loaded.access, loaded));
  const loadPageMergeRequest = async (request: FastifyRequest) => {
    const loaded = await loadMergeRequestsProject(request);
    return { loaded, mr: await loadMergeRequestByIid(deps, request, loaded, 'iid') };
  };
  const head = (loaded: LoadedProject) => loadProjectHead(deps, loaded);
  const mergeRequestUrl = (loaded: LoadedProject, mr: MergeRequestRow) =>
    `/${loaded.namespace.path}/${loaded.project.path}/merge_requests/${mr.iid}`;

  const showMergeRequest = async (
    request: FastifyRequest,
    reply: FastifyReply,
    loaded: LoadedProject,
    mr: MergeRequestRow,
    tab: MergeRequestTab,
    options: { flash?: Flash; status?: number; comment?: string } = {},
  ) => {
    const viewer = request.viewer;
    const open = mr.state === 'opened' || mr.state === 'reopened';
    // What 8.13's widget asked for as the page loaded (merge_check): an unchecked status is worked out.
    const status = open ? (await checkMergeStatus(deps, loaded, mr)).status : mr.merge_status;
    const shown = status === mr.merge_status ? mr : { ...mr, merge_status: status };
    const ciView = await mergeRequestCiView(deps, loaded, mr);
    const pipelineRow = ciView.pipelineRow;
    const [project, presented, thread, commits, diff, canMerge, given, pipelines, builds] = await Promise.all(
      [
        head(loaded),
        loadMergeRequestView(deps, loaded, viewer, shown).then((view) =>
          presentMergeRequest(view, deps.config.externalUrl),
        ),
        tab === 'discussion' ? noteThread(deps, MERGE_REQUEST, mr.id) : undefined,
        tab === 'commits' ? mergeRequestGitCommits(deps, loaded, mr) : undefined,
        tab === 'diffs' ? mergeRequestDiffFiles(deps, loaded, mr) : undefined,
        viewer !== null && open && loaded.project.archived !== 1
          ? mayPushToBranch(deps, { ...loaded, user: viewer }, mr.target_branch)
          : false,
        viewerAwards(deps, MERGE_REQUEST, mr.id, viewer?.id),
        tab === 'pipelines' && pipelineRow
          ? mergeRequestPipelines(deps, loaded, mr).then((rows) => pipelinesWithStages(deps, rows))
          : undefined,
        tab === 'builds' && pipelineRow ? pipelineBuilds(deps, loaded, pipelineRow) : undefined,
      ],
    );
    const { references, notes } = await pageReferences(
      deps,
      viewer,
      loaded,
      loaded.access,
      mr.description,
      thread?.notes ?? [],
    );
    return sendPage(
      reply,
      <MergeRequestPage
        ctx={pageContext(deps, request, reply)}
        project={project}
        mr={presented}
        tab={tab}
        notes={thread && { items: notes, counts: thread.counts }}
        references={references}
        commits={commits}
        diff={diff}
        pipelines={pipelines ?? (tab === 'pipelines' ? [] : undefined)}
        builds={builds ?? (tab === 'builds' ? [] : undefined)}
        ci={{
          pipeline: ciView.pipeline,
          onlyIfPipelineSucceeds: loaded.project.only_allow_merge_if_build_succeeds === 1,
          mergeUser: ciView.mergeUser,
          canCancelAutoMerge: viewer !== null && (canMerge || viewer.id === mr.author_id),
        }}
        canUpdate={viewer !== null && canUpdateMergeRequest(loaded.access, loaded, viewer, mr)}
        canMerge={canMerge}
        awards={{
          given: given.map((award) => award.name),
          canVote: viewer !== null && mayAward(viewer, mergeRequestAwardable(mr), 'thumbsup'),
        }}
        flash={options.flash}
        comment={options.comment}
      />,
      options.status,
    );
  };

  /** The project's milestones and labels for who may set them on MRs (admin_merge_request), else null. */
  const linkChoices = async (loaded: LoadedProject) =>
    canWriteMergeRequests(loaded.access, loaded) ? issueChoices(deps, loaded) : null;
  /** The form's milestone and label fields as the services take them (absent ones change nothing). */
  const linkInput = async (loaded: LoadedProject, params: Params) => {
    const choices = await linkChoices(loaded);
    if (!choices) return {};
    const input = milestoneAndLabelInput(params, 'merge_request', choices.labels);
    return { milestone_id: input.milestoneId, labels: input.labels };
  };

  const showForm = async (
    request: FastifyRequest,
    reply: FastifyReply,
    loaded: LoadedProject,
    values: MergeRequestFormValues,
    errors: string[] = [],
    editing?: MergeRequestRow,
  ) => {
    // The edit form offers no branches; milestone and labels only to who may set them.
    const [project, branches, choices] = await Promise.all([
      head(loaded),
      editing ? [] : branchNames(deps, loaded),
      linkChoices(loaded),
    ]);
    return sendPage(
      reply,
      <MergeRequestFormPage
        ctx={pageContext(deps, request, reply)}
        project={project}
        branches={branches}
        values={values}
        choices={choices}
        errors={errors}
        editing={editing && { iid: editing.iid }}
      />,
      errors.length > 0 ? 422 : 200,
    );
  };

  web.get('/:namespace/:project/merge_requests', async (request, reply) => {
    const loaded = await loadMergeRequestsProject(request);
    const params = requestParams(request);
    const query = issuableListQuery(params, MERGE_REQUEST_TABS);
    const state = query.state as MergeRequestTabState;
    const page = Math.min(positiveInteger(optionalString(params, 'page')) ?? 1, 100_000);
    const [project, choices, list] = await Promise.all([
      head(loaded),
      issueChoices(deps, loaded),
      mergeRequestListView(
        deps,
        request.viewer,
        loaded,
        state,
        { limit: PER_PAGE, offset: (page - 1) * PER_PAGE },
        issuableListFilters(query),
      ),
    ]);
    return sendPage(
      reply,
      <MergeRequestListPage
        ctx={pageContext(deps, request, reply)}
        project={project}
        query={query}
        counts={list.counts}
        choices={choices}
        mergeRequests={list.mergeRequests}
        page={page}
        hasNext={list.hasNext}
        canCreate={canWriteMergeRequests(loaded.access, loaded)}
      />,
    );
  });

  web.get('/:namespace/:project/merge_requests/new', async (request, reply) => {
    const loaded = await loadMergeRequestsProject(request);
    signedIn(request);
    if (!canWriteMergeRequests(loaded.access, loaded)) throw notFound();
    const values = formValues(requestParams(request), loaded.project.default_branch ?? 'master');
    // A branch's "Merge request" link names only the branch: 8.13 titled it after the branch.
    if (values.title === '' && values.sourceBranch !== '')
      values.title = titleFromBranch(values.sourceBranch);
    return showForm(request, reply, loaded, values);
  });

  web.post('/:namespace/:project/merge_requests', async (request, reply) => {
    const loaded = await loadMergeRequestsProject(request);
    const viewer = signedIn(request);
    const params = requestParams(request);
    const values = formValues(params);
    const missing = [
      values.sourceBranch === '' ? 'Source branch must be chosen' : undefined,
      values.targetBranch === '' ? 'Target branch must be chosen' : undefined,
      values.title.trim() === '' ? "Title can't be blank" : undefined,
    ].filter((text): text is string => text !== undefined);
    if (missing.length > 0) return showForm(request, reply, loaded, values, missing);
    const branches = await branchNames(deps, loaded);
    const unknown = [values.sourceBranch, values.targetBranch].filter((name) => !branches.includes(name));
    if (unknown.length > 0) {
      return showForm(
        request,
        reply,
        loaded,
        values,
        unknown.map((name) => `There is no branch ${name}`),
      );
    }
    try {
      const mr = await createMergeRequest(deps, viewer, loaded, loaded, {
        source_branch: values.sourceBranch,
        target_branch: values.targetBranch,
        title: values.title,
        description: values.description,
        ...(await linkInput(loaded, params)),
      });
      return reply.redirect(mergeRequestUrl(loaded, mr), 302);
    } catch (error) {
      if (!isFormRefusal(error)) throw error;
      return showForm(request, reply, loaded, values, errorTexts(error));
    }
  });

  web.get('/:namespace/:project/merge_requests/:iid', async (request, reply) => {
    const { loaded, mr } = await loadPageMergeRequest(request);
    return showMergeRequest(request, reply, loaded, mr, 'discussion');
  });
  web.get('/:namespace/:project/merge_requests/:iid/commits', async (request, reply) => {
    const { loaded, mr } = await loadPageMergeRequest(request);
    return showMergeRequest(request, reply, loaded, mr, 'commits');
  });
  web.get('/:namespace/:project/merge_requests/:iid/diffs', async (request, reply) => {
    const { loaded, mr } = await loadPageMergeRequest(request);
    return showMergeRequest(request, reply, loaded, mr, 'diffs');
  });
  web.get('/:namespace/:project/merge_requests/:iid/pipelines', async (request, reply) => {
    const { loaded, mr } = await loadPageMergeRequest(request);
    return showMergeRequest(request, reply, loaded, mr, 'pipelines');
  });
  web.get('/:namespace/:project/merge_requests/:iid/builds', async (request, reply) => {
    const { loaded, mr } = await loadPageMergeRequest(request);
    if (!canReadBuilds(loaded.access, loaded.project)) throw notFound();
    return showMergeRequest(request, reply, loaded, mr, 'builds');
  });

  web.get('/:namespace/:project/merge_requests/:iid/edit', async (request, reply) => {
    const { loaded, mr } = await loadPageMergeRequest(request);
    const viewer = signedIn(request);
    if (!canUpdateMergeRequest(loaded.access, loaded, viewer, mr)) throw notFound();
    const [presented, choices] = await Promise.all([
      loadMergeRequestView(deps, loaded, viewer, mr).then((view) =>
        presentMergeRequest(view, deps.config.externalUrl),
      ),
      linkChoices(loaded),
    ]);
    const values = {
      sourceBranch: mr.source_branch,
      targetBranch: mr.target_branch,
      title: mr.title,
      description: mr.description ?? '',
      milestoneId: mr.milestone_id === null ? '' : String(mr.milestone_id),
      labelIds: (choices?.labels ?? [])
        .filter((label) => presented.labels.includes(label.title))
        .map((label) => String(label.id)),
    };
    return showForm(request, reply, loaded, values, [], mr);
  });

  registerVoteAndSubscriptionRoutes(web, deps, 'merge_requests', async (request) => {
    const { loaded, mr } = await loadPageMergeRequest(request);
    return {
      url: mergeRequestUrl(loaded, mr),
      awardable: mergeRequestAwardable(mr),
      issuable: mergeRequestIssuable(mr),
    };
  });

  // The edit form, and the close and reopen buttons (a form with only `merge_request[state_event]`).
  // A task box ticked (or the task form saved): the description rewritten against the version shown.
  web.post('/:namespace/:project/merge_requests/:iid/tasks', async (request, reply) => {
    const { loaded, mr } = await loadPageMergeRequest(request);
    const viewer = signedIn(request);
    if (!canUpdateMergeRequest(loaded.access, loaded, viewer, mr)) throw notFound();
    const { version, change } = taskChange(requestParams(request));
    try {
      const description = tickedDescription(mr, version, change);
      const updated = await updateMergeRequestFields(deps, viewer, loaded, mr, {
        description,
        ifUpdatedAt: version,
        togglingTasks: true,
      });
      if (wantsJson(request)) return sendTaskAnswer(reply, updated);
      return reply.redirect(mergeRequestUrl(loaded, mr), 302);
    } catch (error) {
      if (!isFormRefusal(error)) throw error;
      if (wantsJson(request)) return sendTaskAnswer(reply, error);
      const current = (await findMergeRequestOfProject(deps, loaded, mr.id)) ?? mr;
      return showMergeRequest(request, reply, loaded, current, 'discussion', {
        flash: { kind: 'alert', text: errorTexts(error).join(' ') },
        status: error.status,
      });
    }
  });

  web.post('/:namespace/:project/merge_requests/:iid', async (request, reply) => {
    const { loaded, mr } = await loadPageMergeRequest(request);
    const viewer = signedIn(request);
    const params = requestParams(request);
    const stateEvent = optionalString(params, 'merge_request[state_event]');
    if (stateEvent === undefined) return editFields(request, reply, loaded, viewer, mr, params);
    if (stateEvent !== 'close' && stateEvent !== 'reopen') {
      return showMergeRequest(request, reply, loaded, mr, 'discussion', {
        flash: { kind: 'alert', text: 'Unknown state change.' },
        status: 400,
      });
    }
    try {
      await updateMergeRequestFields(deps, viewer, loaded, mr, { state_event: stateEvent });
    } catch (error) {
      if (!isFormRefusal(error)) throw error;
      return showMergeRequest(request, reply, loaded, mr, 'discussion', {
        flash: { kind: 'alert', text: errorTexts(error).join(' ') },
        status: error.status,
      });
    }
    return reply.redirect(mergeRequestUrl(loaded, mr), 302);
  });

  /** The edit form's post: title, description, milestone and labels through PUT …/merge_requests/:id's service. */
  const editFields = async (
    request: FastifyRequest,
    reply: FastifyReply,
    loaded: LoadedProject,
    viewer: UserRow,
    mr: MergeRequestRow,
    params: Params,
  ) => {
    const values = formValues(params);
    // Who may read but not edit is refused before the form is judged, as the API's PUT is.
    if (!canUpdateMergeRequest(loaded.access, loaded, viewer, mr)) throw forbidden();
    if (values.title.trim() === '') {
      return showForm(request, reply, loaded, values, ["Title can't be blank"], mr);
    }
    try {
      await updateMergeRequestFields(deps, viewer, loaded, mr, {
        title: values.title,
        description: values.description,
        ...(await linkInput(loaded, params)),
      });
    } catch (error) {
      if (!isFormRefusal(error)) throw error;
      return showForm(request, reply, loaded, values, errorTexts(error), mr);
    }
    return reply.redirect(mergeRequestUrl(loaded, mr), 302);
  };

  web.post('/:namespace/:project/merge_requests/:iid/merge', async (request, reply) => {
    const { loaded, mr } = await loadPageMergeRequest(request);
    const viewer = signedIn(request);
    const params = requestParams(request);
    const refused = (text: string, status: number) =>
      showMergeRequest(request, reply, loaded, mr, 'discussion', { flash: { kind: 'alert', text }, status });
    let merged: MergeRequestRow;
    try {
      merged = await mergeMergeRequest(deps, viewer, loaded, mr, {
        sha: optionalString(params, 'sha'),
        should_remove_source_branch: optionalString(params, 'should_remove_source_branch'),
        merge_when_build_succeeds: optionalString(params, 'merge_when_build_succeeds') === '1',
      });
    } catch (error) {
      if (error instanceof ApiError && MERGE_REFUSALS[error.status]) {
        // A page answers 403 where the API's merge answers 401: the viewer is signed in.
        return refused(MERGE_REFUSALS[error.status]!, error.status === 401 ? 403 : error.status);
      }
      throw error;
    }
    if (merged.state !== 'merged' && merged.merge_error) {
      return showMergeRequest(request, reply, loaded, merged, 'discussion', {
        flash: { kind: 'alert', text: `The merge failed: ${merged.merge_error}` },
        status: 409,
      });
    }
    return reply.redirect(mergeRequestUrl(loaded, merged), 302);
  });

  web.post(
    '/:namespace/:project/merge_requests/:iid/cancel_merge_when_build_succeeds',
    async (request, reply) => {
      const { loaded, mr } = await loadPageMergeRequest(request);
      const viewer = signedIn(request);
      try {
        const result = await cancelMergeWhenBuildSucceeds(deps, viewer, loaded, mr);
        if (result.status === 'error') {
          const flash = { kind: 'alert', text: result.message } as const;
          return showMergeRequest(request, reply, loaded, mr, 'discussion', { flash, status: 406 });
        }
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) throw forbidden();
        throw error;
      }
      return reply.redirect(mergeRequestUrl(loaded, mr), 302);
    },
  );

  return {
    project: loadMergeRequestsProject,
    async find(request, reply, loaded, _viewer, id) {
      // Reading the project's merge requests is all the API asks of a commenter (8.13.12).
      const mr = await findMergeRequestOfProject(deps, loaded, id);
      if (!mr) throw notFound();
      return {
        url: mergeRequestUrl(loaded, mr),
        noteable: () => mergeRequestNoteable(deps, loaded, mr),
        showAgain: (flash, status, comment) =>
          showMergeRequest(request, reply, loaded, mr, 'discussion', { flash, status, comment }),
      };
    },
  };
}
