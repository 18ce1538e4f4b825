import type { AuditActorKind, AuditEvent } from "@hangar/contract";

/** What a row's actor is called when they have no name of their own. */
export const ACTOR_KIND_LABELS: Record<AuditActorKind, string> = {
  member: "Member",
  api_key: "API key",
  personal_token: "Personal access token",
  visitor: "Share-link visitor",
  reviewer: "Outside reviewer",
  anonymous: "Anonymous",
  system: "Hangar",
};

/** The objects the log knows, as the filter offers them (`action` filters by object type). */
export const OBJECT_LABELS: Record<string, string> = {
  asset: "Asset",
  version: "Version",
  board: "Board",
  comment: "Comment",
  field: "Field",
  field_option: "Field option",
  member: "Member",
  invite: "Invitation",
  share_link: "Share link",
  file_request: "Upload link",
  review: "Review",
  duplicates: "Duplicates",
  api_key: "API key",
  personal_token: "Personal access token",
  workspace: "Workspace",
  account: "Account",
  ai_action: "AI action",
  ai_action_run: "AI action run",
  subscription: "Subscription",
  download: "Download",
  audit: "Audit log",
};

const VERBS: Record<string, string> = {
  created: "created",
  updated: "changed",
  deleted: "deleted",
  restored: "restored",
  purged: "deleted for good",
  added: "added",
  removed: "removed",
  role_changed: "role changed",
  revoked: "revoked",
  accepted: "accepted",
  asset_added: "asset added",
  asset_removed: "asset removed",
  tag_added: "tag added",
  tag_removed: "tag removed",
  favorited: "added to favourites",
  unfavorited: "removed from favourites",
  field_set: "field set",
  field_cleared: "field cleared",
  resolved: "resolved",
  reopened: "reopened",
  decided: "decision",
  reviewer_added: "reviewer added",
  reviewer_updated: "reviewer's link changed",
  reviewer_deleted: "reviewer removed",
  downloaded: "downloaded",
  zip_requested: "zip downloaded",
  comments_exported: "comments exported",
  report_exported: "report exported",
  exported: "exported",
  signed_in: "signed in",
  sign_in_failed: "failed sign-in",
  signed_out: "signed out",
  upload_completed: "upload completed",
  version_made_current: "version made current",
  file_received: "file received",
  dismissed: "dismissed",
  settings_changed: "settings changed",
  checkout_started: "checkout started",
  avatar_created: "picture added",
  avatar_updated: "picture changed",
  avatar_deleted: "picture removed",
  reset_password_requested: "password reset asked for",
  reset_password_used: "password reset",
  verify_email_requested: "verification mail sent",
  verify_email_used: "e-mail verified",
  change_email_requested: "e-mail change asked for",
  change_email_used: "e-mail changed",
};

/** "Asset deleted", "Board asset added", "Account signed in". */
export function actionLabel(action: string): string {
  const dot = action.indexOf(".");
  const type = dot < 0 ? action : action.slice(0, dot);
  const verb = dot < 0 ? "" : action.slice(dot + 1);
  return `${OBJECT_LABELS[type] ?? type} ${VERBS[verb] ?? verb.replaceAll("_", " ")}`.trim();
}

const show = (v: unknown): string => {
  if (v === null || v === undefined || v === "") return "—";
  if (typeof v === "string") return /^\d{4}-\d{2}-\d{2}T/.test(v) ? new Date(v).toLocaleString() : v;
  if (typeof v === "object" && v && "name" in v) return String((v as { name: unknown }).name);
  return typeof v === "object" ? JSON.stringify(v) : String(v);
};

/** Each change as one line: `name: poster.png → poster-final.png`, `tag: summer`. */
export function changeLines(e: AuditEvent): string[] {
  if (!e.changes) return [];
  // Going to Recently deleted and back is what the action says already.
  const entries = Object.entries(e.changes).filter(([field]) => field !== "deleted_at");
  return entries.map(([field, v]) => {
    const label = field.replaceAll("_", " ");
    if (v && typeof v === "object" && ("before" in v || "after" in v)) {
      const c = v as { before?: unknown; after?: unknown };
      if (!("before" in c)) return `${label}: ${show(c.after)}`;
      if (!("after" in c)) return `${label} was ${show(c.before)}`;
      return `${label}: ${show(c.before)} → ${show(c.after)}`;
    }
    return `${label}: ${show(v)}`;
  });
}
