// An outside reviewer's page (issue 30): /review/:token, where someone outside the workspace sees the
// review they were asked to decide on, opens its assets in the viewer, comments and decides.
export { reviewLinkRoute } from "./routes";
