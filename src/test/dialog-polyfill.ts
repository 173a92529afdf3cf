/**
 * jsdom has `<dialog>` but not `showModal()` or `close()`. This stands in for what DialogFrame relies on:
 * `open` while shown, Escape sending a cancelable `cancel` (closing unless prevented), and `close`
 * fired as a later task once closed, as browsers queue it. Inertness and the focus trap are the
 * browser's; the end-to-end tests cover them.
 */
const escapeListeners = new WeakMap<HTMLDialogElement, (event: KeyboardEvent) => void>();

function close(this: HTMLDialogElement) {
  if (!this.hasAttribute("open")) return;
  this.removeAttribute("open");
  const listener = escapeListeners.get(this);
  if (listener) this.removeEventListener("keydown", listener);
  setTimeout(() => this.dispatchEvent(new Event("close")), 0);
}

function showModal(this: HTMLDialogElement) {
  if (this.hasAttribute("open")) throw new DOMException("The dialog is already open.", "InvalidStateError");
  this.setAttribute("open", "");
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== "Escape") return;
    const cancel = new Event("cancel", { cancelable: true });
    if (this.dispatchEvent(cancel)) close.call(this);
  };
  escapeListeners.set(this, onKeyDown);
  this.addEventListener("keydown", onKeyDown);
  const first = this.querySelector<HTMLElement>("button, input, textarea, select, a[href], [tabindex]");
  first?.focus();
}

if (typeof HTMLDialogElement !== "undefined" && !("showModal" in HTMLDialogElement.prototype)) {
  Object.assign(HTMLDialogElement.prototype, { showModal, close });
}
