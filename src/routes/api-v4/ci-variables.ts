// v4's CI variables (lib/api/ci/variables.rb, group_variables.rb, admin/ci/variables.rb) of a project
// (masters), a group (its owners) and the instance (administrators), one shape for all three: key,
// value, variable_type (env_var or file), protected, masked (a value that cannot be hidden in a log is
// a 400) and environment_scope (project and group only). DELETE answers 204.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { forbidden, paramValueInvalid } from '../../errors.ts';
import { requireAdmin, requireViewer } from '../../http/auth.ts';
import { loadGroup, loadProject } from '../../http/loaders.ts';
import { paginate } from '../../http/pagination.ts';
import {
  optionalBoolean,
  optionalOneOf,
  optionalString,
  requestParams,
  type Params,
} from '../../http/params.ts';
import { canAdminBuilds } from '../../policies/ci.ts';
import { canAdminGroup } from '../../policies/groups.ts';
import {
  createOwnedVariable,
  destroyOwnedVariable,
  updateOwnedVariableAttributes,
  type VariableChanges,
} from '../../services/ci/ci-variables.ts';
import {
  countOwnedVariableList,
  listOwnedVariablesPage,
  loadOwnedVariableOr404,
} from '../../views/ci-variable-views.ts';
import { presentVariableV4 } from '../../presenters/api-v4/ci-variable.ts';
import type { VariableOwner } from '../../db/repositories/ci-variables.ts';
import { noContent, requireParams } from './conventions.ts';

const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);

/** The attributes a POST or PUT gives; what it leaves out stays as it is. */
function changesOf(params: Params, owner: VariableOwner): VariableChanges {
  const changes: VariableChanges = {
    value: optionalString(params, 'value'),
    variable_type: optionalOneOf(params, 'variable_type', ['env_var', 'file'] as const, () =>
      paramValueInvalid('variable_type'),
    ),
    protected: flag(optionalBoolean(params, 'protected')),
    masked: flag(optionalBoolean(params, 'masked')),
    environment_scope: owner.kind === 'instance' ? undefined : optionalString(params, 'environment_scope'),
  };
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
}

export function register(app: FastifyInstance, deps: Deps): void {
  const levels: Array<{ base: string; ownerOf: (request: FastifyRequest) => Promise<VariableOwner> }> = [
    {
      base: '/projects/:id/variables',
      ownerOf: async (request) => {
        requireViewer(request);
        const project = await loadProject(deps, request);
        if (!canAdminBuilds(project.access, project)) throw forbidden();
        return { kind: 'project', id: project.project.id };
      },
    },
    {
      base: '/groups/:id/variables',
      ownerOf: async (request) => {
        requireViewer(request);
        const group = await loadGroup(deps, request);
        if (!canAdminGroup(group.access)) throw forbidden();
        return { kind: 'group', id: group.group.id };
      },
    },
    {
      base: '/admin/ci/variables',
      ownerOf: async (request) => {
        requireAdmin(request);
        return { kind: 'instance' };
      },
    },
  ];
  const keyOf = (request: FastifyRequest) => String((request.params as { key: string }).key);

  for (const { base, ownerOf } of levels) {
    app.get(base, async (request, reply) => {
      const owner = await ownerOf(request);
      const rows = await paginate(
        request,
        reply,
        deps.config.externalUrl,
        () => countOwnedVariableList(deps, owner),
        (page) => listOwnedVariablesPage(deps, owner, page),
      );
      return rows.map((row) => presentVariableV4(row, owner));
    });

    app.get(`${base}/:key`, async (request) => {
      const owner = await ownerOf(request);
      return presentVariableV4(await loadOwnedVariableOr404(deps, owner, keyOf(request)), owner);
    });

    app.post(base, async (request, reply) => {
      const params = requestParams(request);
      requireParams(params, 'key', 'value');
      const owner = await ownerOf(request);
      const variable = await createOwnedVariable(
        deps,
        owner,
        optionalString(params, 'key')!,
        changesOf(params, owner),
      );
      return reply.code(201).send(presentVariableV4(variable, owner));
    });

    app.put(`${base}/:key`, async (request) => {
      const owner = await ownerOf(request);
      const variable = await loadOwnedVariableOr404(deps, owner, keyOf(request));
      const changes = changesOf(requestParams(request), owner);
      return presentVariableV4(await updateOwnedVariableAttributes(deps, owner, variable, changes), owner);
    });

    app.delete(`${base}/:key`, async (request, reply) => {
      const owner = await ownerOf(request);
      const variable = await loadOwnedVariableOr404(deps, owner, keyOf(request));
      await destroyOwnedVariable(deps, owner, variable);
      return noContent(reply);
    });
  }
}
