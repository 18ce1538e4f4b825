import { billingApi as api } from "@hangar/contract";
import type { App } from "../../platform/http.ts";
import { addRoute } from "../../platform/register-route.ts";
import type { BillingService } from "./service.ts";

export function billingRoutes(
  app: App,
  billing: BillingService,
  webhook: (raw: Buffer, signature: string | undefined) => Promise<{ received: true; duplicate: boolean }>,
) {
  addRoute(app, api.get, (req) => billing.get(req.actor, req.params.id));
  addRoute(app, api.checkout, (req) => billing.checkout(req.actor, req.params.id, req.body));
  addRoute(app, api.checkoutSession, (req) => billing.checkoutSession(req.actor, req.params.id, req.params.sessionId));
  addRoute(app, api.preview, (req) => billing.preview(req.actor, req.params.id, req.body));
  addRoute(app, api.change, (req) => billing.change(req.actor, req.params.id, req.body));
  addRoute(app, api.cancel, (req) => billing.setCancelAtPeriodEnd(req.actor, req.params.id, true));
  addRoute(app, api.resume, (req) => billing.setCancelAtPeriodEnd(req.actor, req.params.id, false));
  addRoute(app, api.portal, (req) => billing.portal(req.actor, req.params.id));
  addRoute(app, api.sessionOwner, (req) => billing.sessionOwner(req.actor, req.params.sessionId));
  addRoute(app, api.webhook, (req) => {
    const sig = req.headers["stripe-signature"];
    return webhook(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0), typeof sig === "string" ? sig : undefined);
  });
}
