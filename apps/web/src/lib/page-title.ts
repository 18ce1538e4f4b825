import { useEffect } from "react";

export const PRODUCT_NAME = "Hangar";

/**
 * The document's title while a page (or the viewer over it) is shown: "Launch · Hangar", so tabs,
 * history and screen readers say where one is (issue 35). The title before it comes back when it
 * goes, so the viewer closing gives the board its title again. Null: not known yet, leave it.
 */
export function usePageTitle(title: string | null | undefined) {
  useEffect(() => {
    if (!title) return;
    const before = document.title;
    document.title = `${title} · ${PRODUCT_NAME}`;
    return () => {
      document.title = before;
    };
  }, [title]);
}
