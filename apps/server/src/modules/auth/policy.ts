import { action } from "../../platform/policy.ts";

/**
 * Signing up, in and out, confirming an address and resetting a forgotten password are public (the
 * contract marks those routes `access: "public"`, the session hook lets them through): nobody is
 * known yet, so each proves itself with the password or an e-mailed token and is throttled
 * (service.ts); signing out ends only the session its cookie names. A signed-in user's own
 * credentials belong to their account (the access layer's `account` resource): its owner alone
 * changes them.
 */
export const AUTH = {
  changePassword: action("auth.change-password", "edit"),
  changeEmail: action("auth.change-email", "edit"),
};
