// The console's building blocks, so that every screen behaves alike: a
// button is disabled and marked busy while its action runs, a destructive
// action asks first in a dialog that names what it destroys, times carry
// their zone, and errors sit next to what caused them.
import { h } from '../vendor/preact.js';
import { useEffect, useRef, useState } from '../vendor/hooks.js';
import htm from '../vendor/htm.js';
import { t, when } from './i18n.js';

export const html = htm.bind(h);

/**
 * A button whose `onClick` may be async: while it runs the button is
 * disabled and aria-busy (a second click sends nothing), and shows `busyLabel`
 * when given.
 */
export function Button({ onClick, children, busyLabel, disabled, type = 'button', ...rest }) {
  const [busy, setBusy] = useState(false);
  const alive = useRef(true);
  useEffect(() => () => void (alive.current = false), []);
  async function run(event) {
    if (busy) return;
    setBusy(true);
    try {
      await onClick?.(event);
    } finally {
      if (alive.current) setBusy(false);
    }
  }
  return html`<button type=${type} ...${rest} disabled=${disabled || busy} aria-busy=${busy ? 'true' : undefined} onClick=${run}>${busy && busyLabel ? busyLabel : children}</button>`;
}

/**
 * A modal dialog (the browser's own <dialog>, so that focus stays inside,
 * Escape closes it and it shows wherever the page is scrolled).
 */
export function Dialog({ id, title, children, onClose }) {
  const ref = useRef(null);
  // The dialog is removed rather than closed, so the browser does not give
  // focus back by itself: closed first (the page behind a modal one takes no
  // focus), the element that opened it gets it again.
  useEffect(() => {
    const opener = document.activeElement;
    const dialog = ref.current;
    return () => {
      if (dialog.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog.open) dialog.showModal();
    const cancel = (event) => {
      event.preventDefault();
      onClose?.();
    };
    dialog.addEventListener('cancel', cancel);
    return () => dialog.removeEventListener('cancel', cancel);
  }, [onClose]);
  return html`<dialog ref=${ref} id=${id} aria-labelledby=${`${id}-title`}><h2 id=${`${id}-title`}>${title}</h2>${children}</dialog>`;
}

/**
 * A destructive action behind a confirmation: the dialog says what happens
 * (`question`, which names the user, key or client concerned), and only its
 * confirm button runs `onConfirm`, busy until it is done. It opens on
 * Cancel, so that a stray Enter destroys nothing.
 */
export function ConfirmButton({ id, label, question, confirmLabel, onConfirm, className = 'danger', disabled }) {
  const [open, setOpen] = useState(false);
  return html`<button type="button" id=${id} class=${className} disabled=${disabled} onClick=${() => setOpen(true)}>${label}</button>
    ${open &&
    html`<${Dialog} id="confirm" title=${t('confirm.title')} onClose=${() => setOpen(false)}>
      <p id="confirm-question">${question}</p>
      <div class="actions">
        <${Button} id="confirm-yes" class=${className} busyLabel=${t('busy')} onClick=${async () => {
          await onConfirm();
          setOpen(false);
        }}>${confirmLabel ?? label}<//>
        <button type="button" id="confirm-no" autofocus onClick=${() => setOpen(false)}>${t('cancel')}</button>
      </div>
    <//>`}`;
}

/** A time with its zone; the machine-readable instant in `datetime`. */
export function Time({ at }) {
  return at ? html`<time datetime=${at}>${when(at)}</time>` : html`<span class="muted">–</span>`;
}

export function Badge({ children, tone }) {
  return html`<span class=${tone ? `badge ${tone}` : 'badge'}>${children}</span>`;
}

/** An error message in an alert region (null renders nothing). */
export function Problem({ id, text }) {
  return text ? html`<p class="error" role="alert" id=${id}>${text}</p>` : null;
}

/** A success message in a status region (null renders nothing). */
export function Notice({ id, text }) {
  return text ? html`<p class="notice" role="status" id=${id}>${text}</p>` : null;
}
