import type { Response } from 'express';
import { escapeHtml, page, scriptHash, sendHtml } from './html';

/**
 * The form's behaviour, fixed text allowed by its hash in the page's policy. It reads return_to
 * from the form (an escaped attribute), so nothing a visitor supplies is ever script text.
 */
const SCRIPT = `(function () {
  var form = document.getElementById('login');
  var error = document.getElementById('error');
  form.addEventListener('submit', function (ev) {
    ev.preventDefault();
    error.textContent = '';
    var returnTo = form.elements.return_to.value;
    var body = JSON.stringify({
      username: form.elements.username.value,
      password: form.elements.password.value,
      return_to: returnTo
    });
    fetch(form.action, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: body, credentials: 'omit' })
      .then(function (res) {
        return res.json().then(function (data) { return { ok: res.ok, data: data }; });
      })
      .then(function (r) {
        if (!r.ok) {
          error.textContent = (r.data && r.data.errors ? r.data.errors : ['login failed']).join('; ');
          return;
        }
        var url = new URL(returnTo);
        if (url.protocol !== 'http:' && url.protocol !== 'https:') return;
        url.searchParams.append('api_token', 'v2/' + r.data.uuid + '/' + r.data.api_token);
        window.location.assign(url.toString());
      })
      .catch(function () { error.textContent = 'login failed: no answer from the server'; });
  });
})();`;

const SCRIPT_HASH = scriptHash(SCRIPT);

const STYLE = `body{font-family:sans-serif;max-width:22em;margin:3em auto}label{display:block;margin:.8em 0}
input{display:block;width:100%;box-sizing:border-box;padding:.4em}#error{color:#b00}`;

/**
 * `GET /login` with a password provider (auth.md §9.7): a form that posts
 * `{username, password, return_to}` as JSON to `/svc/v1/users/authenticate` and, on success,
 * sends the browser to return_to with `api_token=v2/<uuid>/<api_token>` added. Without script
 * the form still posts (as form fields) to the same endpoint.
 */
export function sendLoginForm(res: Response, returnTo: string, clusterId: string): void {
  const body = `<style>${STYLE}</style>
<h1>Log in to ${escapeHtml(clusterId)}</h1>
<form id="login" method="post" action="/svc/v1/users/authenticate">
<input type="hidden" name="return_to" value="${escapeHtml(returnTo)}">
<label>Username or email <input name="username" autocomplete="username" required autofocus></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Log in</button>
<p id="error" role="alert"></p>
</form>
<script>${SCRIPT}</script>`;
  sendHtml(res, 200, page('Log in', body), [SCRIPT_HASH]);
}
