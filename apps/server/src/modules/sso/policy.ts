import { action, WORKSPACE_VIEW } from "../../platform/policy.ts";

/**
 * Single sign-on (issue 36). Starting a sign-in, its callback and the sign-in options are public
 * (nobody is known yet; the provider's answer, checked against what this browser started, is the
 * proof). A workspace's requirement is read by any member (the app explains a refusal with it) and
 * set by ADMINs.
 */
export const SSO = {
  view: WORKSPACE_VIEW,
  manage: action("sso.manage", "admin"),
};
