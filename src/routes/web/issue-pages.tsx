// /<namespace>/<project>/issues… at GitLab 8.13's paths, and the issue side of the comment form's
// POST /<namespace>/<project>/notes (note-pages.ts). The project and issue load through the API's loader
// and policies (issues off, a hidden project or a confidential issue: 404, or sign in first); every write
// is the API's issue or note service, so events, system notes, todos and hooks come with it. A refused
// write shows the form again.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { hiddenAsks, loadIssueByIid, loadPageProject, type LoadedProject } from '../../http/loaders.ts';
import { optionalString, optionalStringList, requestParams, type Params } from '../../http/params.ts';
import { notFound } from '../../errors.ts';
import { canAdminIssues, canReadIssue, canReadIssues, canUpdateIssue } from '../../policies/issues.ts';
import { createIssue, editIssue, issueIssuable, type IssueInput } from '../../services/issues/issues.ts';
import { issueNoteable } from '../../services/issues/notes.ts';
import { issueAwardable, mayAward } from '../../services/issues/award-emoji.ts';
import { ISSUE } from '../../domain/types.ts';
import { viewerAwards } from '../../views/note-views.ts';
import { registerVoteAndSubscriptionRoutes } from './award-pages.ts';
import { loadProjectHead } from './project-head.ts';
import { findIssueOfProject, loadIssueView, projectIssueScope } from '../../views/issue-views.ts';
import { presentIssue } from '../../presenters/api-v3/issue.ts';
import {
  issueChoices,
  issueListView,
  noteThread,
  pageReferences,
  type IssueChoices,
} from '../../views/issue-pages.ts';
import { TAB_COUNT_CAP } from '../../views/tab-counts.ts';
import {
  IssueFormPage,
  IssueListPage,
  IssuePage,
  type IssueFormValues,
  type IssueQuery,
} from '../../presenters/html/issues.tsx';
import type { Flash } from '../../presenters/html/layout.tsx';
import type { IssueRow } from '../../db/types.ts';
import { pageContext } from './web-session.ts';
import {
  issuableListFilters,
  issuableListQuery,
  milestoneAndLabelInput,
  positiveInteger,
  signedIn,
} from './page-params.ts';
import { errorTexts, isFormRefusal } from './form-errors.ts';
import { sendPage } from './render.ts';
import type { CommentTargets } from './note-pages.ts';
import { sendTaskAnswer, taskChange, wantsJson } from './task-params.ts';
import { tickedDescription } from '../../services/issues/tasks.ts';

const PER_PAGE = 20;

/** The form's fields as the service's input; the admin fields only when the form had them. */
function issueInput(params: Params, choices: IssueChoices): IssueInput & { title: string } {
  const input: IssueInput & { title: string } = {
    title: (optionalString(params, 'issue[title]') ?? '').trim(),
    description: optionalString(params, 'issue[description]') ?? '',
    confidential: optionalString(params, 'issue[confidential]') === '1',
  };
  const assignee = optionalString(params, 'issue[assignee_id]');
  if (assignee !== undefined) input.assigneeId = positiveInteger(assignee) ?? null;
  return { ...input, ...milestoneAndLabelInput(params, 'issue', choices.labels) };
}

function formValues(params: Params): IssueFormValues {
  return {
    title: optionalString(params, 'issue[title]') ?? '',
    description: optionalString(params, 'issue[description]') ?? '',
    assigneeId: optionalString(params, 'issue[assignee_id]') ?? '',
    milestoneId: optionalString(params, 'issue[milestone_id]') ?? '',
    labelIds: optionalStringList(params, 'issue[label_ids]') ?? [],
    confidential: optionalString(params, 'issue[confidential]') === '1',
  };
}

/** Registers the issue pages; answers how the notes route reaches an issue. */
export function registerIssuePages(web: FastifyInstance, deps: Deps): CommentTargets {
  /** The project, when the viewer may read its issues. */
  const loadIssuesProject = (request: FastifyRequest): Promise<LoadedProject> =>
    loadPageProject(deps, request, (loaded) => canReadIssues(loaded.access, loaded));
  const loadPageIssue = async (request: FastifyRequest) => {
    const loaded = await loadIssuesProject(request);
    const issue = await hiddenAsks(request, () => loadIssueByIid(deps, request, loaded, 'iid'));
    return { loaded, issue };
  };
  const head = (loaded: LoadedProject) => loadProjectHead(deps, loaded);
  const issueUrl = (loaded: LoadedProject, issue: IssueRow) =>
    `/${loaded.namespace.path}/${loaded.project.path}/issues/${issue.iid}`;

  const showIssue = async (
    request: FastifyRequest,
    reply: FastifyReply,
    loaded: LoadedProject,
    issue: IssueRow,
    options: { flash?: Flash; comment?: string; status?: number } = {},
  ) => {
    const viewer = request.viewer;
    const [project, presented, thread, given] = await Promise.all([
      head(loaded),
      loadIssueView(deps, viewer, issue, loaded).then((view) => presentIssue(view, deps.config.externalUrl)),
      noteThread(deps, 'Issue', issue.id),
      viewerAwards(deps, ISSUE, issue.id, viewer?.id),
    ]);
    const { references, notes } = await pageReferences(
      deps,
      viewer,
      loaded,
      loaded.access,
      issue.description,
      thread.notes,
    );
    return sendPage(
      reply,
      <IssuePage
        ctx={pageContext(deps, request, reply)}
        project={project}
        issue={presented}
        notes={notes}
        noteCounts={thread.counts}
        references={references}
        canUpdate={viewer !== null && canUpdateIssue(viewer, loaded.access, loaded, issue)}
        awards={{
          given: given.map((award) => award.name),
          canVote: viewer !== null && mayAward(viewer, issueAwardable(issue), 'thumbsup'),
        }}
        flash={options.flash}
        comment={options.comment}
      />,
      options.status,
    );
  };

  const showForm = async (
    request: FastifyRequest,
    reply: FastifyReply,
    loaded: LoadedProject,
    issue: IssueRow | null,
    values: IssueFormValues,
    errors: string[] = [],
    choices?: IssueChoices,
  ) => {
    const [project, options] = await Promise.all([head(loaded), choices ?? issueChoices(deps, loaded)]);
    return sendPage(
      reply,
      <IssueFormPage
        ctx={pageContext(deps, request, reply)}
        project={project}
        issue={issue}
        values={values}
        choices={options}
        canAdmin={canAdminIssues(loaded.access, loaded)}
        errors={errors}
      />,
      errors.length > 0 ? 422 : 200,
    );
  };

  web.get('/:namespace/:project/issues', async (request, reply) => {
    const loaded = await loadIssuesProject(request);
    const params = requestParams(request);
    const query = issuableListQuery(params, ['opened', 'closed', 'all']) as IssueQuery;
    const page = positiveInteger(optionalString(params, 'page')) ?? 1;
    const filters = issuableListFilters(query);
    const [project, choices, list] = await Promise.all([
      head(loaded),
      issueChoices(deps, loaded),
      issueListView(
        deps,
        request.viewer,
        [loaded],
        {
          ...projectIssueScope(request.viewer, loaded),
          ...filters,
          labels: filters.labels && { titles: filters.labels, all: true },
        },
        query.state,
        { limit: PER_PAGE, offset: (Math.min(page, 100_000) - 1) * PER_PAGE },
      ),
    ]);
    return sendPage(
      reply,
      <IssueListPage
        ctx={pageContext(deps, request, reply)}
        project={project}
        query={query}
        counts={list.counts}
        cap={TAB_COUNT_CAP}
        issues={list.issues}
        choices={choices}
        page={page}
        hasNext={list.hasNext}
        canCreate={request.viewer !== null}
      />,
    );
  });

  web.get('/:namespace/:project/issues/new', async (request, reply) => {
    const loaded = await loadIssuesProject(request);
    signedIn(request);
    return showForm(request, reply, loaded, null, formValues({}));
  });

  web.post('/:namespace/:project/issues', async (request, reply) => {
    const loaded = await loadIssuesProject(request);
    const viewer = signedIn(request);
    const params = requestParams(request);
    const choices = await issueChoices(deps, loaded);
    const input = issueInput(params, choices);
    if (input.title === '') {
      return showForm(request, reply, loaded, null, formValues(params), ["Title can't be blank"], choices);
    }
    try {
      const issue = await createIssue(deps, viewer, loaded, input);
      return reply.redirect(issueUrl(loaded, issue), 302);
    } catch (error) {
      if (!isFormRefusal(error)) throw error;
      return showForm(request, reply, loaded, null, formValues(params), errorTexts(error), choices);
    }
  });

  web.get('/:namespace/:project/issues/:iid', async (request, reply) => {
    const { loaded, issue } = await loadPageIssue(request);
    return showIssue(request, reply, loaded, issue);
  });

  web.get('/:namespace/:project/issues/:iid/edit', async (request, reply) => {
    const { loaded, issue } = await loadPageIssue(request);
    const viewer = signedIn(request);
    if (!canUpdateIssue(viewer, loaded.access, loaded, issue)) throw notFound();
    const presented = await loadIssueView(deps, viewer, issue, loaded).then((view) =>
      presentIssue(view, deps.config.externalUrl),
    );
    const choices = await issueChoices(deps, loaded);
    return showForm(
      request,
      reply,
      loaded,
      issue,
      {
        title: issue.title,
        description: issue.description ?? '',
        assigneeId: issue.assignee_id === null ? '' : String(issue.assignee_id),
        milestoneId: issue.milestone_id === null ? '' : String(issue.milestone_id),
        labelIds: choices.labels
          .filter((label) => presented.labels.includes(label.title))
          .map((label) => String(label.id)),
        confidential: issue.confidential === 1,
      },
      [],
      choices,
    );
  });

  registerVoteAndSubscriptionRoutes(web, deps, 'issues', async (request) => {
    const { loaded, issue } = await loadPageIssue(request);
    return { url: issueUrl(loaded, issue), awardable: issueAwardable(issue), issuable: issueIssuable(issue) };
  });

  // A task box ticked (or the task form saved): the description rewritten against the version shown.
  web.post('/:namespace/:project/issues/:iid/tasks', async (request, reply) => {
    const { loaded, issue } = await loadPageIssue(request);
    const viewer = signedIn(request);
    if (!canUpdateIssue(viewer, loaded.access, loaded, issue)) throw notFound();
    const { version, change } = taskChange(requestParams(request));
    try {
      const description = tickedDescription(issue, version, change);
      const updated = await editIssue(deps, viewer, loaded, issue, {
        description,
        ifUpdatedAt: version,
        togglingTasks: true,
      });
      if (wantsJson(request)) return sendTaskAnswer(reply, updated);
      return reply.redirect(issueUrl(loaded, issue), 302);
    } catch (error) {
      if (!isFormRefusal(error)) throw error;
      if (wantsJson(request)) return sendTaskAnswer(reply, error);
      const current = (await findIssueOfProject(deps, loaded.project.id, issue.id)) ?? issue;
      return showIssue(request, reply, loaded, current, {
        flash: { kind: 'alert', text: errorTexts(error).join(' ') },
        status: error.status,
      });
    }
  });

  // The edit form, and the close and reopen buttons (a form with only `issue[state_event]`).
  web.post('/:namespace/:project/issues/:iid', async (request, reply) => {
    const { loaded, issue } = await loadPageIssue(request);
    const viewer = signedIn(request);
    const params = requestParams(request);
    const stateEvent = optionalString(params, 'issue[state_event]');
    try {
      if (stateEvent !== undefined) {
        if (stateEvent !== 'close' && stateEvent !== 'reopen') {
          return showIssue(request, reply, loaded, issue, {
            flash: { kind: 'alert', text: 'Unknown state change.' },
            status: 400,
          });
        }
        await editIssue(deps, viewer, loaded, issue, { stateEvent });
        return reply.redirect(issueUrl(loaded, issue), 302);
      }
      const choices = await issueChoices(deps, loaded);
      const input = issueInput(params, choices);
      if (input.title === '') {
        return showForm(request, reply, loaded, issue, formValues(params), ["Title can't be blank"], choices);
      }
      await editIssue(deps, viewer, loaded, issue, input);
      return reply.redirect(issueUrl(loaded, issue), 302);
    } catch (error) {
      if (!isFormRefusal(error)) throw error;
      if (stateEvent !== undefined) {
        return showIssue(request, reply, loaded, issue, {
          flash: { kind: 'alert', text: errorTexts(error).join(' ') },
          status: error.status,
        });
      }
      return showForm(request, reply, loaded, issue, formValues(params), errorTexts(error));
    }
  });

  return {
    project: loadIssuesProject,
    async find(request, reply, loaded, viewer, id) {
      const issue = await findIssueOfProject(deps, loaded.project.id, id);
      if (!issue || !canReadIssue(viewer, loaded.access, loaded, issue)) throw notFound();
      return {
        url: issueUrl(loaded, issue),
        noteable: async () => issueNoteable(deps, loaded, issue),
        showAgain: (flash, status, comment) =>
          showIssue(request, reply, loaded, issue, { flash, status, comment }),
      };
    },
  };
}
