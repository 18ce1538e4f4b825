export { COMMENT } from "./policy.ts";
export { type CommentsService, createCommentsService, type VisitorIdentity } from "./service.ts";
