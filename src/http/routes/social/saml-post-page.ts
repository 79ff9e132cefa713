import type { Deps } from '../../../flows/context.js';
import type { PostForm } from '../../../social/saml/provider.js';
import { currentSite } from '../../../messaging/mail-content.js';
import { scriptPageHeaders } from './script-page.js';

// The page that posts an AuthnRequest to an IdP taking the HTTP-POST
// binding: its only script submits the form at once (a button without
// JavaScript).

const SUBMIT_SCRIPT = 'document.forms[0].submit();';

export function samlPostPage(deps: Pick<Deps, 'config' | 'templates' | 'i18n'>, form: PostForm, acceptLanguage: string | undefined): string {
  const fields = Object.entries(form.fields).map(([name, value]) => ({ name, value }));
  return deps.templates.render('socialaccount/saml_post.html', deps.i18n.negotiate(acceptLanguage), { current_site: currentSite(deps.config), action: form.action, fields, script: SUBMIT_SCRIPT });
}

export const SAML_POST_PAGE_HEADERS = scriptPageHeaders(SUBMIT_SCRIPT);
