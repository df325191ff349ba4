// /profile/personal_access_tokens (GitLab 8.13's profiles/personal_access_tokens page): a new token's
// secret, shown this once; the form to make one (name, expiry day, scopes); the active tokens with a
// revoke button each.
import { Csrf, type Flash, type PageContext } from './layout.tsx';
import { ProfileFrame } from './profile.tsx';
import type { TokenViewModel } from '../api-v4/personal-access-tokens.ts';

/** Each scope with the words GitLab's form put beside its checkbox. */
const SCOPE_TEXTS: ReadonlyArray<[string, string]> = [
  ['api', 'Full access to the API, and read and write access to repositories over git.'],
  ['read_api', 'Read access to the API; clone over git.'],
  ['read_user', 'Read access to the user and users API.'],
  ['read_repository', 'Clone over git (no API access).'],
  ['write_repository', 'Clone and push over git (no API access).'],
  ['sudo', 'Act as any user through the API (administrators only).'],
];

export interface NewTokenForm {
  name: string;
  expiresAt: string;
  scopes: string[];
}

export function PersonalAccessTokensPage(props: {
  ctx: PageContext;
  flash?: Flash | null;
  tokens: TokenViewModel[];
  /** The secret of the token just made. */
  created?: string;
  typed?: NewTokenForm;
}) {
  const typed = props.typed ?? { name: '', expiresAt: '', scopes: ['api'] };
  return (
    <ProfileFrame ctx={props.ctx} tab="tokens" title="Personal Access Tokens" flash={props.flash}>
      {props.created !== undefined && (
        <div class="clone">
          <label for="created-personal-access-token">Your new personal access token</label>
          <input id="created-personal-access-token" type="text" readOnly value={props.created} />
          <p class="muted">Make sure you save it: you won't be able to access it again.</p>
        </div>
      )}
      <p>
        Personal access tokens are used in place of a password for git over HTTP and with the API (as
        PRIVATE-TOKEN or Authorization: Bearer), limited to their scopes.
      </p>
      <h2>Add a personal access token</h2>
      <form class="stack" method="post" action="/profile/personal_access_tokens">
        <Csrf ctx={props.ctx} />
        <label>
          Name
          <input type="text" name="personal_access_token[name]" value={typed.name} required />
        </label>
        <label>
          Expires at (optional)
          <input type="date" name="personal_access_token[expires_at]" value={typed.expiresAt} />
        </label>
        <fieldset>
          <legend>Scopes</legend>
          {SCOPE_TEXTS.map(([scope, text]) => (
            <label>
              <input
                type="checkbox"
                name="personal_access_token[scopes][]"
                value={scope}
                checked={typed.scopes.includes(scope)}
              />{' '}
              <strong>{scope}</strong> <span class="muted">{text}</span>
            </label>
          ))}
        </fieldset>
        <div>
          <button type="submit" class="primary">
            Create personal access token
          </button>
        </div>
      </form>
      <h2>Active personal access tokens ({props.tokens.length})</h2>
      {props.tokens.length === 0 ? (
        <p class="muted">This user has no active personal access tokens.</p>
      ) : (
        <div class="table-wrap">
          <table class="keep-words" aria-label="Active personal access tokens">
            <thead>
              <tr>
                <th>Name</th>
                <th>Created</th>
                <th>Expires</th>
                <th>Last used</th>
                <th>Scopes</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {props.tokens.map(({ token, scopes }) => (
                <tr>
                  <td>{token.name}</td>
                  <td>{token.created_at.slice(0, 10)}</td>
                  <td>{token.expires_at ?? 'Never'}</td>
                  <td>{token.last_used_at?.slice(0, 10) ?? 'Never'}</td>
                  <td>{scopes.join(', ')}</td>
                  <td>
                    <form method="post" action={`/profile/personal_access_tokens/${token.id}/revoke`}>
                      <Csrf ctx={props.ctx} />
                      <button type="submit" class="btn-danger" aria-label={`Revoke ${token.name}`}>
                        Revoke
                      </button>
                    </form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </ProfileFrame>
  );
}
