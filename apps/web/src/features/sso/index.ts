// The single sign-on feature's public surface (issue 36): the login page's button and options, the
// workspace setting, and the screen of a workspace that requires SSO.
export { ssoStartHref, useSignInOptions } from "./api";
export { SsoButton } from "./components/sso-button";
export { SsoRequiredState } from "./components/sso-required-state";
export { WorkspaceSsoSetting } from "./components/workspace-sso-setting";
