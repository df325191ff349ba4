// GET /users/password/new (the address to mail a link to) and GET /users/password/edit (the new password),
// with Devise's field names.
import { Csrf, Layout, type Flash, type PageContext } from './layout.tsx';

export function ForgotPasswordPage(props: { ctx: PageContext; flash?: Flash }) {
  return (
    <Layout ctx={props.ctx} title="Forgot your password?" flash={props.flash}>
      <h1>Forgot your password?</h1>
      <form class="stack" method="post" action="/users/password">
        <Csrf ctx={props.ctx} />
        <label>
          Email
          <input type="email" name="user[email]" autocomplete="email" required autofocus />
        </label>
        <div>
          <button type="submit" class="primary">
            Reset password
          </button>
        </div>
      </form>
      <p>
        <a href="/users/sign_in">Sign in</a>
      </p>
    </Layout>
  );
}

export function ChangePasswordPage(props: { ctx: PageContext; token: string; flash?: Flash }) {
  return (
    <Layout ctx={props.ctx} title="Change your password" flash={props.flash}>
      <h1>Change your password</h1>
      <form class="stack" method="post" action="/users/password/edit">
        <Csrf ctx={props.ctx} />
        <input type="hidden" name="user[reset_password_token]" value={props.token} />
        <label>
          New password
          <input type="password" name="user[password]" autocomplete="new-password" required autofocus />
        </label>
        <label>
          Confirm new password
          <input type="password" name="user[password_confirmation]" autocomplete="new-password" required />
        </label>
        <div>
          <button type="submit" class="primary">
            Change your password
          </button>
        </div>
      </form>
    </Layout>
  );
}
