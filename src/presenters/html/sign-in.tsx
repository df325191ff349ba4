// GET /users/sign_in: login (username or email) and password, GitLab's field names.
import { Csrf, Layout, type Flash, type PageContext } from './layout.tsx';

export function SignInPage(props: { ctx: PageContext; login: string; redirectTo: string; flash?: Flash }) {
  return (
    <Layout ctx={props.ctx} title="Sign in" flash={props.flash}>
      <h1>Sign in</h1>
      <form class="stack" method="post" action="/users/sign_in">
        <Csrf ctx={props.ctx} />
        <input type="hidden" name="redirect_to" value={props.redirectTo} />
        <label>
          Username or Email
          <input
            type="text"
            name="user[login]"
            value={props.login}
            autocomplete="username"
            required
            autofocus
          />
        </label>
        <label>
          Password
          <input type="password" name="user[password]" autocomplete="current-password" required />
        </label>
        <div>
          <button type="submit" class="primary">
            Sign in
          </button>
        </div>
      </form>
      <p>
        <a href="/users/password/new">Forgot your password?</a>
      </p>
    </Layout>
  );
}
