import type { RouteObject } from "react-router-dom";
import { lazyPage } from "../../lib/lazy-page";

/** Settings → Subscription, as a tab of the settings layout. */
export const subscriptionSettingsRoute: RouteObject = {
  path: "subscription",
  lazy: lazyPage(() => import("./pages/settings-subscription-page"), "SettingsSubscriptionPage"),
};

/** /w/:ws/checkout, /w/:ws/subscription/change and /w/:ws/subscription/success, each loaded on demand. */
export const billingWorkspaceRoutes: RouteObject[] = [
  { path: "checkout", lazy: lazyPage(() => import("./pages/checkout-page"), "CheckoutPage") },
  { path: "subscription/change", lazy: lazyPage(() => import("./pages/change-plan-page"), "ChangePlanPage") },
  {
    path: "subscription/success",
    lazy: lazyPage(() => import("./pages/checkout-success-page"), "CheckoutSuccessPage"),
  },
];

/** /subscription/success: a checkout started without a workspace in the URL. */
export const accountCheckoutSuccessRoute: RouteObject = {
  path: "subscription/success",
  lazy: lazyPage(() => import("./pages/checkout-success-page"), "AccountCheckoutSuccessPage"),
};
