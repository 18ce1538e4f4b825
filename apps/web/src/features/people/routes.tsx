import type { RouteObject } from "react-router-dom";
import { lazyPage } from "../../lib/lazy-page";

/** /w/:workspaceId/people and /w/:workspaceId/people/:personId (issue 32), loaded on demand. */
export const peopleRoutes: RouteObject[] = [
  { path: "people", lazy: lazyPage(() => import("./pages/people-page"), "PeoplePage") },
  { path: "people/:personId", lazy: lazyPage(() => import("./pages/person-page"), "PersonPage") },
];
