import type { Page } from "@playwright/test";

/**
 * What phone-walk.spec.ts checks on each screen at 390 × 844 (issue 35), measured in the page:
 * - overflow: the document is no wider than the viewport, and no visible element reaches past its
 *   right edge unless a scroll container of its own (overflow-x auto or scroll) holds it, or a box
 *   that clips it (overflow hidden or clip) ends inside the viewport: the overflow is then out of sight;
 * - target size (WCAG 2.5.8): every visible interactive control is at least 24 × 24 px, or passes
 *   the spacing exception (a 24 px circle centred on it meets no other target and no other small
 *   target's circle), or is a link inline in a sentence (the inline exception);
 * - covered: the point at a control's centre (scrolled into view first) is the control or inside it;
 * - stubs: no text cut with an ellipsis to less than three letters' width (a badge reading "O…"):
 *   a long name may give way, a word squeezed to nothing says nothing.
 * A control measures with its label when the input itself is hidden (Mantine's switch and radio
 * chips draw their own) or with it when both show (a checkbox and its words are one target).
 */

export interface PhoneProblems {
  pageWidth: number;
  /** How many controls were measured, and the smallest of them: what the run log shows per screen. */
  controls: number;
  smallest: string;
  overflow: string[];
  small: string[];
  covered: string[];
  stubs: string[];
}

/** What a check found, one line per element: "<what> <the element>" (see describeEl below). */
export async function phoneProblems(page: Page, scope?: string): Promise<PhoneProblems> {
  return page.evaluate(inPage, { scope: scope ?? null });
}

/**
 * Known findings that are fine, each with why: an entry matches when its screen and its text are
 * both in a finding's line (screen "*" for every screen). Keep it short; a new entry needs a reason
 * a reviewer can check on the screenshot.
 */
export const ALLOWED: Array<{ screen: string; text: string; why: string }> = [];

export const allowed = (screen: string, line: string) =>
  ALLOWED.some((a) => (a.screen === "*" || a.screen === screen) && line.includes(a.text));

// Runs in the browser: self-contained (no imports, no closures over this module).
function inPage({ scope }: { scope: string | null }): PhoneProblems {
  const W = window.innerWidth;
  const H = window.innerHeight;
  const EPS = 0.5;
  const MIN = 24;

  const describeEl = (el: Element) => {
    const id = el.id && !/^mantine-|^«|^:r/.test(el.id) ? `#${el.id}` : "";
    const testId = el.getAttribute("data-testid");
    const cls = Array.from(el.classList)
      .filter((c) => c.startsWith("mantine-"))
      .slice(0, 2);
    const label = el.getAttribute("aria-label") ?? (el as HTMLElement).innerText?.trim().replace(/\s+/g, " ") ?? "";
    return `<${el.tagName.toLowerCase()}${id}${testId ? ` data-testid=${testId}` : ""}${cls.length ? ` .${cls.join(".")}` : ""}>${label ? ` "${label.slice(0, 40)}"` : ""}`;
  };
  const box = (r: DOMRect) => `${Math.round(r.width)}×${Math.round(r.height)} at ${Math.round(r.x)},${Math.round(r.y)}`;
  const shows = (el: Element) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
  };

  // Overflow: the outermost offenders only (their insides go with them).
  const pageWidth = document.documentElement.scrollWidth;
  const overflow: string[] = [];
  if (pageWidth > W) overflow.push(`the document is ${pageWidth}px wide`);
  const held = (el: Element) => {
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      const x = getComputedStyle(up).overflowX;
      if (x === "auto" || x === "scroll") return true;
      if ((x === "hidden" || x === "clip") && up.getBoundingClientRect().right <= W + EPS) return true;
    }
    return false;
  };
  const offenders = Array.from(document.body.querySelectorAll("*")).filter(
    (el) => el.getBoundingClientRect().right > W + EPS && shows(el) && !held(el),
  );
  for (const el of offenders)
    if (!offenders.some((o) => o !== el && o.contains(el)))
      overflow.push(`reaches ${Math.round(el.getBoundingClientRect().right)}px: ${describeEl(el)}`);

  // Stubs: an ellipsis leaving less than three letters (3em) of the text.
  const stubs: string[] = [];
  for (const el of Array.from(document.body.querySelectorAll("*"))) {
    const cs = getComputedStyle(el);
    if (cs.textOverflow !== "ellipsis" || el.scrollWidth <= el.clientWidth + 1) continue;
    if (el.clientWidth < 3 * Number.parseFloat(cs.fontSize) && shows(el))
      stubs.push(`${el.clientWidth}px of ${el.scrollWidth}px shown: ${describeEl(el)}`);
  }

  // The controls of the top layer: an open menu, else the last open dialog, else what `scope`
  // names, else the page (what lies under a menu or a dialog's overlay is covered by design).
  // (Still fading in counts: it is on top already.)
  const layer = (selector: string) =>
    Array.from(document.querySelectorAll(selector))
      .filter((el) => el.checkVisibility({ checkVisibilityCSS: true }))
      .slice(-1);
  const menus = layer('[role="menu"], [role="listbox"]');
  const dialogs = layer('[role="dialog"], [role="alertdialog"]');
  const roots = menus.length
    ? menus
    : dialogs.length
      ? dialogs
      : scope
        ? Array.from(document.querySelectorAll(scope))
        : [document.body];
  const SELECTOR = [
    "button",
    "a[href]",
    "input:not([type=hidden])",
    "select",
    "textarea",
    "summary",
    ...["button", "link", "checkbox", "switch", "radio", "tab", "menuitem", "menuitemcheckbox", "menuitemradio"].map(
      (r) => `[role="${r}"]`,
    ),
  ].join(",");
  const disabled = (el: Element) =>
    (el as HTMLButtonElement).disabled === true || el.closest('[aria-disabled="true"], [inert], fieldset:disabled');
  // The element whose box is the target: an input's label when the input itself is hidden.
  const labelOf = (el: Element) =>
    ((el as HTMLInputElement).labels?.[0] as Element | undefined) ?? el.closest("label") ?? undefined;
  type Target = { el: Element; parts: Element[]; rect: DOMRect };
  const union = (rs: DOMRect[]) => {
    const x = Math.min(...rs.map((r) => r.left));
    const y = Math.min(...rs.map((r) => r.top));
    return new DOMRect(x, y, Math.max(...rs.map((r) => r.right)) - x, Math.max(...rs.map((r) => r.bottom)) - y);
  };
  const targets: Target[] = [];
  for (const root of roots)
    for (const el of Array.from(root.querySelectorAll(SELECTOR))) {
      if (disabled(el)) continue;
      const label = el.tagName === "INPUT" ? labelOf(el) : undefined;
      const tiny = (e: Element) => e.getBoundingClientRect().width <= 2 || e.getBoundingClientRect().height <= 2;
      const own = shows(el) && !tiny(el) ? el : null;
      const words = label && shows(label) ? label : null;
      // A checkbox or radio and its words side by side are one target; a text box is its own box.
      const pair = /^(checkbox|radio)$/.test((el as HTMLInputElement).type ?? "");
      const parts = (own && !pair ? [own] : [own, words]).filter((e): e is Element => e !== null);
      if (parts.length === 0) continue;
      // Off-canvas above or to the left (a skip link until focused, a closed drawer): not on screen.
      const rect = union(parts.map((p) => p.getBoundingClientRect()));
      if (rect.right <= 0 || rect.bottom <= 0) continue;
      targets.push({ el, parts, rect });
    }

  const small: string[] = [];
  const inline = (el: Element) =>
    (el.tagName === "A" || el.getAttribute("role") === "link") &&
    getComputedStyle(el).display === "inline" &&
    (el.parentElement?.textContent ?? "").trim().length > (el.textContent ?? "").trim().length;
  const centre = (r: DOMRect) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 });
  const isSmall = (t: Target) => t.rect.width < MIN - EPS || t.rect.height < MIN - EPS;
  const related = (a: Target, b: Target) =>
    a === b || a.parts.some((p) => b.parts.some((q) => p.contains(q) || q.contains(p)));
  for (const t of targets) {
    if (!isSmall(t) || inline(t.el)) continue;
    const c = centre(t.rect);
    const clash = targets.find((o) => {
      if (related(t, o)) return false;
      // The circle meets the other target's box, or (both small) the other's circle.
      const dx = Math.max(o.rect.left - c.x, 0, c.x - o.rect.right);
      const dy = Math.max(o.rect.top - c.y, 0, c.y - o.rect.bottom);
      if (Math.hypot(dx, dy) < MIN / 2) return true;
      const oc = centre(o.rect);
      return isSmall(o) && Math.hypot(oc.x - c.x, oc.y - c.y) < MIN;
    });
    if (clash) small.push(`${box(t.rect)}, 24 px circle meets ${describeEl(clash.el)}: ${describeEl(t.el)}`);
  }

  // Covered: each control scrolled into view if need be, the scroll positions put back after.
  const scrolled = [document.scrollingElement!, ...Array.from(document.querySelectorAll("*"))]
    .filter((e) => e.scrollHeight > e.clientHeight || e.scrollWidth > e.clientWidth)
    .map((e) => ({ e, top: e.scrollTop, left: e.scrollLeft }));
  const covered: string[] = [];
  const onScreen = (c: { x: number; y: number }) => c.x >= 0 && c.x < W && c.y >= 0 && c.y < H;
  const hitAt = (c: { x: number; y: number }) => (onScreen(c) ? document.elementFromPoint(c.x, c.y) : null);
  for (const t of targets) {
    // The control itself when it shows, else its label; where it is, then (if that is off the
    // screen or under a sticky bar) scrolled to the middle of its scroll containers, as one would.
    const main = t.parts[0]!;
    const mine = (hit: Element | null) => hit !== null && t.parts.some((p) => p.contains(hit));
    if (mine(hitAt(centre(main.getBoundingClientRect())))) continue;
    main.scrollIntoView({ block: "center", inline: "nearest", behavior: "instant" });
    const c = centre(main.getBoundingClientRect());
    const hit = hitAt(c);
    if (mine(hit)) continue;
    if (!onScreen(c))
      covered.push(`centre ${Math.round(c.x)},${Math.round(c.y)} is off the screen: ${describeEl(t.el)}`);
    else covered.push(`covered by ${hit ? describeEl(hit) : "nothing"}: ${describeEl(t.el)}`);
  }
  for (const s of scrolled) {
    s.e.scrollTop = s.top;
    s.e.scrollLeft = s.left;
  }
  const least = targets.reduce<Target | null>(
    (m, t) => (!m || Math.min(t.rect.width, t.rect.height) < Math.min(m.rect.width, m.rect.height) ? t : m),
    null,
  );
  const smallest = least ? `${box(least.rect)} ${describeEl(least.el)}` : "none";
  return { pageWidth, controls: targets.length, smallest, overflow, small, covered, stubs };
}
