// The shared view: the public page of a share link (/s/:token), where a visitor sees the shared asset
// in the viewer or the shared board's grid, comments and edits fields as the link allows.
export { sharedRoute } from "./routes";
