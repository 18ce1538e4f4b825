// What every public link's page shares (share links, request-files links): the page frame with the
// password prompt and the "link is over" state, and the link's address and copying it.
export { copyLink, publicLink } from "./link-utils";
export { CenteredPage, PasswordPrompt, SharedError, useNoIndex } from "./public-frame";
