/** Constants and texts of the asset viewer (spec 02 §2, §9). */
export const IMAGE_ZOOM = { min: 1, max: 4, factor: 1.5, offsetPx: 32, defaultRatio: 1.7778 } as const;
export const VIEWER_SIDEBAR = { width: 320, rail: 56, breakpoint: 500 } as const;
export const VIDEO_PLAYER = {
  speeds: [0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2],
  volumeStep: 0.1,
  /** Controls hide after this long playing with no mouse movement… */
  hideAfterMs: 3000,
  /** …or this long after the mouse leaves. */
  hideAfterLeaveMs: 1000,
} as const;
/** Image types a browser shows as they are: the viewer zooms into such an original directly… */
export const BROWSER_SAFE_IMAGE_TYPES: readonly string[] = [
  "image/jpeg",
  "image/png",
  "image/webp",
  "image/gif",
  "image/avif",
];
/** …when it is at most this big; otherwise the pipeline makes `large.jpg` for zooming. */
export const ZOOM_ORIGINAL_MAX_BYTES = 25 * 1024 * 1024;

/** Name and description save after this pause in typing. */
export const AUTOSAVE_MS = 500;

export const VIEWER_MESSAGES = {
  fieldsHeading: "Fields",
  noFields: "No custom fields",
  noFieldsDetail: "No custom fields are available for this asset",
  boardsAll: "All Assets & Files",
  currentView: "Current view",
  removeFromBoard: "Remove from Board",
  addToBoard: "Add to Board",
  pagesHeading: "Pages",
  noComments: "No comments yet",
  noCommentsDetail: "Be the first to leave a comment!",
  notAvailable: "N/A",
} as const;
