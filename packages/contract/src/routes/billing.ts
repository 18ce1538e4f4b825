import {
  BillingState,
  ChangeBody,
  ChangePreview,
  ChangePreviewBody,
  CheckoutBody,
  CheckoutSessionParams,
  CheckoutSessionState,
  RedirectAnswer,
  WebhookAnswer,
  WorkspaceCheckoutSessionParams,
} from "../billing.ts";
import { WorkspaceParams } from "../workspaces.ts";
import { defineRoute } from "./define.ts";

const tag = "billing";
const access = "workspace";

export const billingApi = {
  get: defineRoute({
    method: "GET",
    path: "/workspaces/:id/billing",
    tag,
    access,
    summary: "The workspace's plan, subscription state, usage against the limits, and the plans on offer",
    params: WorkspaceParams,
    response: { 200: BillingState },
  }),
  checkout: defineRoute({
    method: "POST",
    path: "/workspaces/:id/billing/checkout",
    tag,
    access,
    summary: "Starts a hosted checkout (ADMIN); the browser goes to the answered URL",
    params: WorkspaceParams,
    body: CheckoutBody,
    response: { 200: RedirectAnswer },
  }),
  checkoutSession: defineRoute({
    method: "GET",
    path: "/workspaces/:id/billing/checkout/:sessionId",
    tag,
    access,
    summary: "Whether the webhook has made a checkout's subscription active yet",
    params: WorkspaceCheckoutSessionParams,
    response: { 200: CheckoutSessionState },
  }),
  preview: defineRoute({
    method: "POST",
    path: "/workspaces/:id/billing/preview",
    tag,
    access,
    summary: "The provider's proration preview of a plan change (ADMIN)",
    params: WorkspaceParams,
    body: ChangePreviewBody,
    response: { 200: ChangePreview },
  }),
  change: defineRoute({
    method: "POST",
    path: "/workspaces/:id/billing/change",
    tag,
    access,
    summary: "Changes the plan with the previewed proration date (ADMIN)",
    params: WorkspaceParams,
    body: ChangeBody,
    response: { 200: BillingState },
  }),
  cancel: defineRoute({
    method: "POST",
    path: "/workspaces/:id/billing/cancel",
    tag,
    access,
    summary: "Cancels at the end of the current period (ADMIN)",
    params: WorkspaceParams,
    response: { 200: BillingState },
  }),
  resume: defineRoute({
    method: "POST",
    path: "/workspaces/:id/billing/resume",
    tag,
    access,
    summary: "Undoes a cancellation at period end (ADMIN)",
    params: WorkspaceParams,
    response: { 200: BillingState },
  }),
  portal: defineRoute({
    method: "POST",
    path: "/workspaces/:id/billing/portal",
    tag,
    access,
    summary: "A billing-portal session for the card and invoices (ADMIN)",
    params: WorkspaceParams,
    response: { 200: RedirectAnswer },
  }),
  /** A checkout started without a workspace in the URL: which workspace it was for. */
  sessionOwner: defineRoute({
    method: "GET",
    path: "/billing/checkout/:sessionId",
    tag,
    access: "user",
    params: CheckoutSessionParams,
    response: { 200: CheckoutSessionState },
  }),
  // Called by the provider, not a browser: no session, no CSRF token; the Stripe-Signature header over
  // the raw body is the proof (checked before anything is read), so the body arrives as bytes.
  webhook: defineRoute({
    method: "POST",
    path: "/billing/webhook",
    tag,
    access: "public",
    csrf: false,
    bodyKind: "buffer",
    summary: "The payment provider's signed events",
    response: { 200: WebhookAnswer },
  }),
};
