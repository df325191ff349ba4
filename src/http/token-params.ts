// The parameters of a new personal access token, as GitLab's API declares them (requires :name,
// requires :scopes with known values, optional :expires_at Date, optional :description): every problem
// in one `{"error": …}`, as Grape reports them. The profile page reads its form through the same rules.
import { ApiError } from '../errors.ts';
import { isTokenScope } from '../policies/access-tokens.ts';
import type { NewPersonalAccessToken } from '../services/users/personal-access-tokens.ts';
import { grapeParams, optionalStringList, presentString, type Params } from './params.ts';

export function newTokenParams(params: Params): NewPersonalAccessToken {
  const problems: string[] = [];
  let name: string | undefined;
  let expiresAt: string | null = null;
  try {
    const values = grapeParams(params, [{ name: 'name', kind: 'string', required: true }]);
    name = values.name as string;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    problems.push(String(error.body?.error));
  }
  let scopes: string[] | undefined;
  try {
    scopes = optionalStringList(params, 'scopes');
  } catch {
    problems.push('scopes is invalid');
  }
  if (scopes === undefined && !problems.includes('scopes is invalid')) problems.push('scopes is missing');
  else if (scopes && !scopes.every(isTokenScope)) problems.push('scopes does not have a valid value');
  try {
    expiresAt = (grapeParams(params, [{ name: 'expires_at', kind: 'date', required: false }]).expires_at ??
      null) as string | null;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    problems.push(String(error.body?.error));
  }
  if (problems.length > 0) throw new ApiError(400, { error: problems.join(', ') });
  return {
    name: name!,
    scopes: scopes!,
    expiresAt,
    description: presentString(params, 'description') ?? null,
  };
}
