// What the user page's sections share: a write whose answer shows in the
// section it came from (a notice, or the refusal next to the field it names).
import { useState } from '../vendor/hooks.js';
import { API, errorsByParam } from '../lib/api.js';
import { html, Notice, Problem } from '../lib/ui.js';

/**
 * A section's writes to /users/:id…: `run(method, path, body, done)` performs
 * one (through `change`, so reauthentication is asked when due), shows `done`
 * and reloads the page's data on success; a refusal's messages are kept by
 * the param they name (`errors`), the rest under ''. Answers the result, or
 * null when the administrator cancelled.
 */
export function useSectionWrite(userId, change, reload) {
  const [notice, setNotice] = useState('');
  const [errors, setErrors] = useState({});
  async function run(method, path, body, done) {
    setNotice('');
    setErrors({});
    const result = await change(method, `${API}/users/${userId}${path}`, body);
    if (!result) return null;
    if (result.http >= 400) {
      setErrors(errorsByParam(result.body));
      return result;
    }
    if (done) setNotice(typeof done === 'function' ? done(result.body.data) : done);
    await reload();
    return result;
  }
  return { run, notice, errors };
}

/** The attributes tying an input to its refusal (aria-invalid, aria-describedby). */
export const describedBy = (errors, param, id) => (errors[param] ? { 'aria-invalid': 'true', 'aria-describedby': `${id}-error` } : {});

/** The refusal of `param`, next to the input `id`. */
export const FieldError = ({ errors, param, id }) => (errors[param] ? html`<span class="error" id=${`${id}-error`}>${errors[param].join(' ')}</span>` : null);

/** A section's notice and the refusals that name no field of it (`fields`: those shown by their inputs). */
export function Outcome({ id, notice, errors, fields = [] }) {
  const rest = Object.entries(errors).filter(([param]) => !fields.includes(param)).flatMap(([, messages]) => messages);
  return html`<${Notice} id=${`${id}-notice`} text=${notice} /><${Problem} id=${`${id}-error`} text=${rest.join(' ')} />`;
}
