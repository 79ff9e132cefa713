// The admin console: a small preact + htm page (no build step; both served
// by this server from node_modules). It signs in through the browser login
// mounted on the admin listener (/_service/browser/v1) and reads and changes
// through the admin routes behind that session (/console/api/v1).
import { render } from './vendor/preact.js';
import { useCallback, useEffect, useState } from './vendor/hooks.js';
import { API, AUTH, call, errorText, SIGNED_OUT } from './lib/api.js';
import { Brand } from './lib/brand.js';
import { t, timeZone } from './lib/i18n.js';
import { href, match, navigate, usePlace } from './lib/router.js';
import { html, Notice } from './lib/ui.js';
import { routes } from './routes.js';
import { Reauthenticate } from './screens/reauthenticate.js';
import { SignIn } from './screens/sign-in.js';
import { Onboarding } from './screens/onboarding.js';
import { Setup } from './screens/setup.js';

const home = routes.find((r) => r.nav).path;

function Nav({ path }) {
  const section = path.split('/')[0] || home;
  return html`<nav aria-label=${t('nav.label')}>
    ${routes.filter((r) => r.nav).map((r) => html`<a href=${href(r.path)} id=${`nav-${r.path}`} aria-current=${r.path === section ? 'page' : undefined}>${t(r.nav)}</a>`)}
  </nav>`;
}

function App() {
  const [me, setMe] = useState(undefined);
  const [problem, setProblem] = useState('');
  const [ended, setEnded] = useState(false);
  const [reauth, setReauth] = useState(null);
  // The second factors an administrator without one may enrol (403 mfa_enrollment_required), else null.
  const [enrol, setEnrol] = useState(null);
  const place = usePlace();

  const check = useCallback(async () => {
    const result = await call('GET', `${API}/me`);
    setEnrol(null);
    if (result.http === 200) {
      setProblem('');
      setEnded(false);
      return setMe(result.body.data);
    }
    setMe(null);
    const code = result.body?.errors?.[0]?.code;
    if (code === 'mfa_enrollment_required') return setEnrol(result.body.data?.flows?.[0]?.types ?? []);
    if (code === 'admin_required' || code === 'mfa_required') setProblem(errorText(result.body));
  }, []);

  useEffect(() => void check(), [check]);
  // A session ended elsewhere (revoked, expired): back to the sign-in, saying why.
  useEffect(() => {
    const onEnded = () => {
      setMe((previous) => {
        if (previous) setEnded(true);
        return null;
      });
    };
    addEventListener(SIGNED_OUT, onEnded);
    return () => removeEventListener(SIGNED_OUT, onEnded);
  }, []);

  async function signOut() {
    await call('DELETE', `${AUTH}/auth/session`);
    setMe(null);
    setEnrol(null);
    setProblem('');
    setEnded(false);
  }

  /** A change, asking for reauthentication first when the session's proof is old; null when the administrator cancels. */
  const change = useCallback(async (method, url, body) => {
    for (;;) {
      const result = await call(method, url, body);
      if (!(result.http === 401 && result.body?.errors?.[0]?.code === 'reauthentication_required')) return result;
      const confirmed = await new Promise((resolve) => setReauth({ flows: result.body.data?.flows, resolve }));
      setReauth(null);
      if (!confirmed) return null;
    }
  }, []);

  if (me === undefined) return html`<p>${t('loading')}</p>`;
  if (place.path === 'setup') {
    const signedIn = () => {
      navigate(home, {}, { replace: true });
      return check();
    };
    return html`<main><${Setup} token=${place.query.token} signedIn=${Boolean(me || enrol)} onSignedIn=${signedIn} onSignOut=${signOut} /></main>`;
  }
  if (me === null && enrol) return html`<main><${Onboarding} types=${enrol} onDone=${check} onSignOut=${signOut} /></main>`;
  if (me === null)
    return html`<main>
      ${problem && html`<section><p class="error" role="alert" id="problem">${problem}</p><button onClick=${signOut}>${t('sign_out')}</button></section>`}
      ${!problem && html`<${Notice} id="signed-out" text=${ended ? t('signed_out') : ''} /><${SignIn} onSignedIn=${check} />`}
    </main>`;
  const found = match(routes, place.path || home);
  return html`<div>
    <header>
      <a class="home" href=${href(home)}><${Brand} /> ${t('header.title')}</a>
      <${Nav} path=${place.path} />
      <span class="me"><span class="who" title=${me.display}>${me.display}</span> <button id="sign-out" onClick=${signOut}>${t('sign_out')}</button></span>
    </header>
    <main>
      ${reauth && html`<${Reauthenticate} request=${reauth} onDone=${(ok) => reauth.resolve(ok)} />`}
      ${found
        ? html`<${found.route.screen} key=${place.path} params=${found.params} query=${place.query} change=${change} me=${me} />`
        : html`<p class="error" role="alert" id="not-found">${t('not_found')}</p>`}
    </main>
    <footer class="muted">${t('times_in_zone', { zone: timeZone })}</footer>
  </div>`;
}

render(html`<${App} />`, document.getElementById('app'));
document.body.dataset.ready = 'yes';
