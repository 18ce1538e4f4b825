/**
 * Public links, one module for every kind (docs/architecture.md §10): the token (`newLinkToken`, its lookup by
 * the kind, its redaction from logs by platform/logging.ts), the gate (argon2id password sent only in
 * `X-Share-Password`, expiry, disabling, throttling of wrong passwords and unknown tokens), the
 * credential cookie bound to one link and its password version (`hangar_<kind>`, sent only to the
 * link's API path), resolution through the read cache, and the visitor each kind's links act as.
 *
 * A new kind (review links, portal links) plugs in by declaring itself with `defineLinkKind` in its
 * own module (name, page, the 404's text, its lookup by token, whether its table keeps the read cache
 * coherent, its visitor), registering with `publicLinks.kind(…)` for its resolver, and wrapping its
 * public routes with `linkVisits(kind, …)`. Its settings use `gateOnCreate`, `gateChanges` and
 * `gateView`. public-links.test.ts then checks its token's redaction and its cache trigger, and the
 * gate's tests (gate.test.ts) run for it once it is added to link-kinds.fixture.ts.
 */
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
export { createPublicLinks, type LinkResolver, type LinkVisit, type PublicLinks } from "./service.ts";
export { type GateBody, gateChanges, gateOnCreate, gateView, newLinkToken } from "./settings.ts";
export { linkVisits, visitorHeader } from "./visit.ts";
