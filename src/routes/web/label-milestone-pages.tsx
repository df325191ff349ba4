// /<namespace>/<project>/labels and /<namespace>/<project>/milestones at GitLab 8.13's paths (milestones
// named by iid): lists, one milestone with its issues, and the new forms for who may (reporters and up
// for labels, masters for milestones), through the API's label and milestone services.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FunctionComponent } from 'preact';
import type { PageContext } from '../../presenters/html/layout.tsx';
import type { ProjectHead } from '../../presenters/html/repository.tsx';
import type { Deps } from '../../deps.ts';
import { loadPageProject, type LoadedProject } from '../../http/loaders.ts';
import { isCalendarDay, optionalString, requestParams, type Params } from '../../http/params.ts';
import { notFound, paramInvalid } from '../../errors.ts';
import {
  canAdminLabels,
  canAdminMilestones,
  canReadIssues,
  canReadMilestones,
} from '../../policies/issues.ts';
import { createLabel } from '../../services/issues/labels.ts';
import { createMilestone, editMilestone } from '../../services/issues/milestones.ts';
import { loadProjectHead } from './project-head.ts';
import { projectLabelList } from '../../views/label-views.ts';
import { issueListPage, projectIssueScope } from '../../views/issue-views.ts';
import {
  findMilestoneByIid,
  milestoneListView,
  pageReferences,
  type MilestoneTabState,
} from '../../views/issue-pages.ts';
import { presentIssue, presentLabel, presentMilestone } from '../../presenters/api-v3/issue.ts';
import {
  LabelFormPage,
  LabelListPage,
  MilestoneFormPage,
  MilestoneListPage,
  MilestonePage,
  type LabelFormValues,
  type MilestoneFormValues,
} from '../../presenters/html/labels-milestones.tsx';
import { pageContext } from './web-session.ts';
import { positiveInteger, signedIn } from './page-params.ts';
import { sendPage } from './render.ts';
import { errorTexts, isFormRefusal } from './form-errors.ts';

const PER_PAGE = 20;
/** Issues shown on a milestone's page; the rest are a link to the filtered issue list away. */
const MILESTONE_ISSUES = 50;
/** GitLab's default label colour. */
const DEFAULT_COLOR = '#428bca';

interface ProjectParams {
  namespace: string;
  project: string;
  iid?: string;
}

function labelValues(params: Params): LabelFormValues {
  return {
    title: (optionalString(params, 'label[title]') ?? '').trim(),
    color: optionalString(params, 'label[color]') ?? DEFAULT_COLOR,
    description: optionalString(params, 'label[description]') ?? '',
  };
}

function milestoneValues(params: Params): MilestoneFormValues {
  return {
    title: (optionalString(params, 'milestone[title]') ?? '').trim(),
    description: optionalString(params, 'milestone[description]') ?? '',
    dueDate: (optionalString(params, 'milestone[due_date]') ?? '').trim(),
  };
}

/** A calendar day as a date input sends it, or undefined when it is not one. */
function calendarDay(text: string): string | undefined {
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && isCalendarDay(text) ? text : undefined;
}

export function registerLabelMilestonePages(web: FastifyInstance, deps: Deps): void {
  const load = (request: FastifyRequest): Promise<LoadedProject> =>
    loadPageProject(deps, request, (loaded) => canReadMilestones(loaded.access, loaded));
  const head = (loaded: LoadedProject) => loadProjectHead(deps, loaded);
  const projectUrl = (loaded: LoadedProject) => `/${loaded.namespace.path}/${loaded.project.path}`;

  /** The new label or milestone form: empty, or again as posted with its errors (422). */
  const formPage =
    <V,>(Page: FunctionComponent<{ ctx: PageContext; project: ProjectHead; values: V; errors: string[] }>) =>
    async (
      request: FastifyRequest,
      reply: FastifyReply,
      loaded: LoadedProject,
      values: V,
      errors: string[] = [],
    ) =>
      sendPage(
        reply,
        <Page
          ctx={pageContext(deps, request, reply)}
          project={await head(loaded)}
          values={values}
          errors={errors}
        />,
        errors.length > 0 ? 422 : 200,
      );
  const labelForm = formPage(LabelFormPage);
  const milestoneForm = formPage(MilestoneFormPage);

  web.get('/:namespace/:project/labels', async (request, reply) => {
    const loaded = await load(request);
    const [project, labels] = await Promise.all([
      head(loaded),
      projectLabelList(deps, request.viewer, loaded).then((views) => views.map(presentLabel)),
    ]);
    return sendPage(
      reply,
      <LabelListPage
        ctx={pageContext(deps, request, reply)}
        project={project}
        labels={labels}
        canAdmin={canAdminLabels(loaded.access, loaded)}
      />,
    );
  });

  web.get('/:namespace/:project/labels/new', async (request, reply) => {
    const loaded = await load(request);
    signedIn(request);
    if (!canAdminLabels(loaded.access, loaded)) throw notFound();
    return labelForm(request, reply, loaded, labelValues({}));
  });

  web.post('/:namespace/:project/labels', async (request, reply) => {
    const loaded = await load(request);
    signedIn(request);
    if (!canAdminLabels(loaded.access, loaded)) throw notFound();
    const values = labelValues(requestParams(request));
    if (values.title === '') return labelForm(request, reply, loaded, values, ["Title can't be blank"]);
    try {
      await createLabel(deps, loaded.project.id, {
        name: values.title,
        color: values.color,
        description: values.description || undefined,
      });
    } catch (error) {
      if (!isFormRefusal(error)) throw error;
      return labelForm(request, reply, loaded, values, errorTexts(error));
    }
    return reply.redirect(`${projectUrl(loaded)}/labels`, 302);
  });

  web.get('/:namespace/:project/milestones', async (request, reply) => {
    const loaded = await load(request);
    const params = requestParams(request);
    const asked = optionalString(params, 'state');
    const state: MilestoneTabState = asked === 'closed' || asked === 'all' ? asked : 'opened';
    const page = Math.min(positiveInteger(optionalString(params, 'page')) ?? 1, 100_000);
    const [project, list] = await Promise.all([
      head(loaded),
      milestoneListView(deps, loaded, state, { limit: PER_PAGE, offset: (page - 1) * PER_PAGE }),
    ]);
    return sendPage(
      reply,
      <MilestoneListPage
        ctx={pageContext(deps, request, reply)}
        project={project}
        state={state}
        counts={list.counts}
        milestones={list.milestones}
        page={page}
        hasNext={list.hasNext}
        canAdmin={canAdminMilestones(loaded.access, loaded)}
      />,
    );
  });

  web.get('/:namespace/:project/milestones/new', async (request, reply) => {
    const loaded = await load(request);
    signedIn(request);
    if (!canAdminMilestones(loaded.access, loaded)) throw notFound();
    return milestoneForm(request, reply, loaded, milestoneValues({}));
  });

  web.post('/:namespace/:project/milestones', async (request, reply) => {
    const loaded = await load(request);
    const viewer = signedIn(request);
    if (!canAdminMilestones(loaded.access, loaded)) throw notFound();
    const values = milestoneValues(requestParams(request));
    const dueDate = values.dueDate === '' ? null : calendarDay(values.dueDate);
    const errors = [
      values.title === '' ? "Title can't be blank" : undefined,
      dueDate === undefined ? 'Due date is not a date' : undefined,
    ].filter((text): text is string => text !== undefined);
    if (errors.length > 0) return milestoneForm(request, reply, loaded, values, errors);
    try {
      const milestone = await createMilestone(deps, viewer, loaded.project.id, {
        title: values.title,
        description: values.description,
        dueDate,
      });
      return reply.redirect(`${projectUrl(loaded)}/milestones/${milestone.iid}`, 302);
    } catch (error) {
      if (!isFormRefusal(error)) throw error;
      // The service speaks 8.13's API text (`Failed to create milestone {:title=>[…]}`); say it plainly.
      const taken = errorTexts(error).some((text) => text.includes('has already been taken'));
      return milestoneForm(
        request,
        reply,
        loaded,
        values,
        taken ? ['Title has already been taken'] : errorTexts(error),
      );
    }
  });

  web.get('/:namespace/:project/milestones/:iid', async (request, reply) => {
    const loaded = await load(request);
    const iid = positiveInteger((request.params as ProjectParams).iid);
    const milestone = iid === undefined ? undefined : await findMilestoneByIid(deps, loaded, iid);
    if (!milestone) throw notFound();
    const issues = canReadIssues(loaded.access, loaded)
      ? await issueListPage(
          deps,
          request.viewer,
          {
            ...projectIssueScope(request.viewer, loaded),
            milestoneId: milestone.id,
            orderBy: 'created_at',
            sort: 'desc',
          },
          { limit: MILESTONE_ISSUES + 1, offset: 0 },
          [loaded],
        ).then((views) => views.map((view) => presentIssue(view, deps.config.externalUrl)))
      : [];
    return sendPage(
      reply,
      <MilestonePage
        ctx={pageContext(deps, request, reply)}
        project={await head(loaded)}
        milestone={presentMilestone(milestone)}
        issues={issues.slice(0, MILESTONE_ISSUES)}
        hasMore={issues.length > MILESTONE_ISSUES}
        canAdmin={canAdminMilestones(loaded.access, loaded)}
        references={
          (await pageReferences(deps, request.viewer, loaded, loaded.access, milestone.description, []))
            .references
        }
      />,
    );
  });

  // The close and reopen buttons (8.13's `milestone[state_event]`: close or activate).
  web.post('/:namespace/:project/milestones/:iid', async (request, reply) => {
    const loaded = await load(request);
    const viewer = signedIn(request);
    if (!canAdminMilestones(loaded.access, loaded)) throw notFound();
    const iid = positiveInteger((request.params as ProjectParams).iid);
    const milestone = iid === undefined ? undefined : await findMilestoneByIid(deps, loaded, iid);
    if (!milestone) throw notFound();
    const stateEvent = optionalString(requestParams(request), 'milestone[state_event]');
    if (stateEvent !== 'close' && stateEvent !== 'activate') throw paramInvalid('milestone[state_event]');
    await editMilestone(deps, viewer, milestone, { stateEvent });
    return reply.redirect(`${projectUrl(loaded)}/milestones/${milestone.iid}`, 302);
  });
}
