// The review feature's public surface: the drawer, the annotation layer and the context the viewer provides.
export { AnnotationLayer } from "./annotation-layer";
export { invalidateComments as invalidateAssetComments } from "./api";
export { CommentDrawer, ReviewThreads } from "./comment-drawer";
export { DrawingStage } from "./drawing/drawing-toolbar";
export { onFrame, roundMs } from "./drawing/tools";
export type { FrameInfo } from "./drawing/use-draw";
export { useLiveConnected, useLiveEvents } from "./live";
export {
  type AnonymousInfo,
  ReviewProvider,
  type SharedReview,
  useReview,
  type VideoControl,
} from "./review-context";
export { clock } from "./review-math";
export { VersionReview } from "./version-review";
