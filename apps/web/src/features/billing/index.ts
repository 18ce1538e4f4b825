// The billing feature's public surface: its routes, the lazy past-due banner and the plan-limit helper.
import { lazy } from "react";

export { isPlanLimit, PlanLimitMessage } from "./components/plan-limit";
export { accountCheckoutSuccessRoute, billingWorkspaceRoutes, subscriptionSettingsRoute } from "./routes";

/** Loaded on demand, only for ADMINs, so the first load carries none of billing's pages. */
export const PastDueBanner = lazy(() =>
  import("./components/past-due-banner").then((m) => ({ default: m.PastDueBanner })),
);
