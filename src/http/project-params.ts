// The parameters of the projects resource, read once for both API versions: a project's attributes on
// create and edit, and a list's filters. v4's renamed names reach these readers under v3's names
// (routes/api-v4/conventions.ts v4Params), so both versions validate and default alike.
import {
  boundedSearch,
  optionalBoolean,
  optionalInteger,
  optionalString,
  presentString,
  toBoolean,
  type Params,
} from './params.ts';
import { forbidden, paramValueInvalid, validationFailed } from '../errors.ts';
import { isProjectOwner } from '../policies/access.ts';
import type { LoadedProject } from './loaders.ts';
import { FEATURE_SWITCHES, type ProjectAttributes } from '../services/projects/projects.ts';
import { Visibility, visibilityLevel } from '../domain/types.ts';
import type { ProjectListQuery, ProjectOrder } from '../db/types.ts';

/** Which attributes a form takes beside the common ones. */
export interface AttributeForm {
  namespaceId: boolean;
  importUrl: boolean;
  defaultBranch: boolean;
}

/** v3's three forms: POST /projects, POST /projects/user/:user_id, PUT /projects/:id. */
export const V3_FORMS = {
  create: { namespaceId: true, importUrl: true, defaultBranch: false },
  createForUser: { namespaceId: false, importUrl: true, defaultBranch: true },
  edit: { namespaceId: false, importUrl: false, defaultBranch: true },
} as const satisfies Record<string, AttributeForm>;

export function projectAttributes(params: Params, form: AttributeForm): ProjectAttributes {
  const attributes: ProjectAttributes = {};
  const name = presentString(params, 'name');
  if (name !== undefined) attributes.name = name;
  const path = presentString(params, 'path');
  if (path !== undefined) attributes.path = path;
  const description = presentString(params, 'description');
  if (description !== undefined) attributes.description = description;
  if (form.namespaceId) {
    const namespaceId = presentString(params, 'namespace_id');
    if (namespaceId !== undefined) {
      if (!/^\d{1,9}$/.test(namespaceId.trim())) throw validationFailed({ namespace: ['is not valid'] });
      attributes.namespace_id = Number(namespaceId);
    }
  }
  if (form.importUrl) {
    const importUrl = presentString(params, 'import_url');
    if (importUrl !== undefined) attributes.import_url = importUrl.trim();
  }
  if (form.defaultBranch) {
    const defaultBranch = presentString(params, 'default_branch');
    if (defaultBranch !== undefined) attributes.default_branch = defaultBranch;
  }
  const level = optionalInteger(params, 'visibility_level');
  if (level !== undefined) attributes.visibility_level = level;
  else {
    // `public` maps true → 20 and false → 0, and is ignored when visibility_level is given.
    const isPublic = toBoolean(params, 'public');
    if (isPublic !== undefined)
      attributes.visibility_level = isPublic ? Visibility.Public : Visibility.Private;
  }
  for (const key of FEATURE_SWITCHES) {
    const value = optionalBoolean(params, key);
    if (value !== undefined) attributes[key] = value;
  }
  return attributes;
}

/** A `visibility` word as its level; another word is 400 `visibility does not have a valid value`. */
export function optionalVisibility(params: Params): number | undefined {
  const word = presentString(params, 'visibility');
  if (word === undefined) return undefined;
  const level = visibilityLevel(word);
  if (level === undefined) throw paramValueInvalid('visibility');
  return level;
}

const PROJECT_ORDERS: readonly ProjectOrder[] = [
  'id',
  'name',
  'path',
  'created_at',
  'updated_at',
  'last_activity_at',
];

/** What every project list filters and orders by; `strict` (v4) refuses an unknown order or sort. */
export function projectListFilters(
  params: Params,
  strict: boolean,
): Pick<ProjectListQuery, 'archived' | 'visibility' | 'orderBy' | 'sort'> {
  const orderBy = optionalString(params, 'order_by');
  const sort = optionalString(params, 'sort');
  const knownOrder = orderBy !== undefined && (PROJECT_ORDERS as readonly string[]).includes(orderBy);
  if (strict) {
    // `similarity` orders a search by closeness in GitLab; here it keeps the default order.
    if (orderBy !== undefined && orderBy !== '' && !knownOrder && orderBy !== 'similarity') {
      throw paramValueInvalid('order_by');
    }
    if (sort !== undefined && sort !== '' && sort !== 'asc' && sort !== 'desc')
      throw paramValueInvalid('sort');
  }
  return {
    archived: toBoolean(params, 'archived'),
    visibility: optionalVisibility(params),
    orderBy: knownOrder ? (orderBy as ProjectOrder) : 'created_at',
    sort: sort === 'asc' ? 'asc' : 'desc',
  };
}

/** The `search` of a list, bounded as every search is. */
export function projectListSearch(params: Params): string | undefined {
  return boundedSearch(presentString(params, 'search'));
}

/** An edit by a master: only a *changed* name or visibility needs owner rights (both versions). */
export function assertMayEdit(loaded: LoadedProject, attributes: ProjectAttributes): void {
  const renames = attributes.name !== undefined && attributes.name !== loaded.project.name;
  const changesVisibility =
    attributes.visibility_level !== undefined &&
    attributes.visibility_level !== loaded.project.visibility_level;
  if ((renames || changesVisibility) && !isProjectOwner(loaded.access)) throw forbidden();
}
