/** Whether keys pressed at `el` are text (a field, an editable element): shortcuts leave them alone. */
export const isTyping = (el: EventTarget | null) =>
  el instanceof HTMLElement && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));

/** …or a slider, whose arrows move it (a focused volume slider moves with ← and →). */
export const keepsOwnKeys = (el: EventTarget | null) =>
  isTyping(el) || (el instanceof HTMLElement && el.getAttribute("role") === "slider");
