import { action } from "../../platform/policy.ts";

/** Uploading adds assets: editors and admins. */
export const UPLOAD = { create: action("upload.create", "edit") };
