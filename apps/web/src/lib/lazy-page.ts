import type { ComponentType } from "react";

/**
 * A React Router `lazy` loader for a page module: the route's component is fetched when the route is
 * first matched, so each page ships in its own chunk instead of in the first load (issue 11). The
 * router shows its hydrate fallback on a first load and keeps the old page (with the navigation
 * bar) while a later navigation waits for the chunk.
 */
export function lazyPage<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return async () => ({ Component: (await load())[name] });
}
