// What stands in the way of an enrolment, in words an administrator can act on.
import { errorText } from '../lib/api.js';
import { t } from '../lib/i18n.js';

/** '' for no error; an unverified address (MFA_ALLOW_UNVERIFIED_EMAIL off) says how an operator lifts it. */
export function enrolProblem(body) {
  const codes = (body?.errors ?? []).map((e) => e.code);
  if (codes.includes('unverified_email')) return t('onboarding.unverified_email');
  return body?.errors?.length ? errorText(body) : '';
}
