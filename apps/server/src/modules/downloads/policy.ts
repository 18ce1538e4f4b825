import { action } from "../../platform/policy.ts";

/** Any member may download (COMMENTER too, spec 01 §6); a visitor when the link allows downloads. */
export const DOWNLOAD = { request: action("download.request", "view", (f) => f.allow_downloads) };
