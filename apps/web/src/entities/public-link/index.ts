// What every public link shares (share links, request-files links): the page frame with the password
// prompt and the "link is over" state, the link's address and copying it, and the review table
// Settings → Share links lists each kind in.
export { copyLink, publicLink } from "./link-utils";
export { type LinkColumn, LinkMoment, type LinkRowActions, LinkSubject, LinksTable } from "./links-table";
export { CenteredPage, PasswordPrompt, SharedError, useNoIndex } from "./public-frame";
