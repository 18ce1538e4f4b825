import type { MouseEvent } from "react";
import classes from "./skip-link.module.css";

/** The id of the element a page's skip link moves to: its `<main>`, focusable by script only. */
export const MAIN_CONTENT_ID = "main-content";

/**
 * "Skip to content": the first Tab stop of a page, shown only while it has focus; Enter moves focus
 * past the header and navigation to the page's main content (WCAG 2.4.1, issue 35). Focus is moved
 * by hand: following the `#` address would change the route's URL.
 */
export function SkipLink({ target = MAIN_CONTENT_ID }: { target?: string }) {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const main = document.getElementById(target);
    if (!main) return;
    event.preventDefault();
    main.focus({ preventScroll: true });
    main.scrollIntoView({ block: "start" });
  };
  return (
    <a href={`#${target}`} className={classes.link} onClick={skip} data-testid="skip-link">
      Skip to content
    </a>
  );
}
