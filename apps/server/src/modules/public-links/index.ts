export {
  createLinkGate,
  GATE_LIMITS,
  GATE_THROTTLED,
  type LinkGate,
  linkInactive,
  linkIsLive,
  UNLOCK_TTL_SECONDS,
  type VisitInput,
} from "./gate.ts";
export {
  credentialCookie,
  defineLinkKind,
  type GatedLink,
  type LinkKind,
  linkApiPath,
  linkPage,
} from "./kind.ts";
export { linkVisits, visitorHeader } from "./routes.ts";
export { createPublicLinks, type LinkResolver, type LinkVisit, type PublicLinks } from "./service.ts";
export { type GateBody, gateChanges, gateOnCreate, gateView, newLinkToken } from "./settings.ts";
