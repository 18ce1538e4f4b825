import type { SmartBoardFilter } from "@hangar/contract";
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";
import type { BillingCheckoutSessionsTable, BillingEventsTable, BillingSubscriptionsTable } from "./types-billing.ts";

export type {
  BillingCheckoutSessionsTable,
  BillingEventsTable,
  BillingSubscriptionsTable,
  CommentMentionsTable,
  CommentsTable,
};

import type { AiActionResultsTable, AiActionRunsTable, AiActionsTable, AssetVisionTable } from "./types-ai.ts";
import type { CommentMentionsTable, CommentsTable } from "./types-comments.ts";
import type { ShareLinkActivityTable, ShareLinksTable } from "./types-links.ts";
import type { FileRequestsTable, FileRequestUploadsTable } from "./types-requests.ts";
import type {
  ReviewAssetsTable,
  ReviewDecisionsTable,
  ReviewEventsTable,
  ReviewReviewersTable,
  ReviewStagesTable,
  ReviewsTable,
} from "./types-reviews.ts";

export type { ShareLinkActivityTable, ShareLinksTable };

import type { ApiKeysTable } from "./types-api-keys.ts";
import type { AuditEventsTable } from "./types-audit.ts";
import type {
  FaceRejectionsTable,
  FaceScansTable,
  FaceSettingsTable,
  FacesTable,
  PeopleTable,
} from "./types-people.ts";
import type { PersonalTokensTable } from "./types-personal-tokens.ts";
import type { AssetRightsTable, RightsNoticesTable } from "./types-rights.ts";
import type {
  AssetHashesTable,
  AssetHashPairsTable,
  DuplicateDismissalsTable,
  DuplicateGroupsTable,
  DuplicateNearChangesTable,
  DuplicateSettingsTable,
} from "./types-similar.ts";
import type { SsoLoginsTable } from "./types-sso.ts";
import type { AssetVersionPointers, AssetVersionsTable, VersionFacts } from "./types-versions.ts";
import type { WatermarkRenditionsTable } from "./types-watermarks.ts";
import type { WebhookDeliveriesTable, WebhookEndpointsTable, WebhookEventsTable } from "./types-webhooks.ts";

/** Database types, kept in one place (migrations are the truth; keep this in step with them). */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export type RoleColumn = "ADMIN" | "EDITOR" | "COMMENTER";

export interface UsersTable {
  id: Generated<string>;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  email_verified_at: NullableTimestamp;
  pending_email: string | null;
  avatar_updated_at: NullableTimestamp;
  /** The OpenID provider's `iss#sub` after a single sign-on (migration 20261207-3604). */
  sso_subject: Generated<string | null>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface UserAvatarsTable {
  user_id: string;
  image: Buffer;
  mime_type: string;
  updated_at: Generated<Date>;
}

export interface SessionsTable {
  id: string; // sha256 of the cookie token
  user_id: string;
  created_at: Generated<Date>;
  expires_at: Timestamp;
  last_seen_at: Generated<Date>;
  ip: string | null;
  user_agent: string | null;
  /** Started by a single sign-on (migration 20261207-3604). */
  sso: Generated<boolean>;
}

export type EmailTokenPurpose = "verify_email" | "change_email" | "reset_password";
export interface EmailTokensTable {
  id: Generated<string>;
  token_hash: string;
  user_id: string;
  purpose: EmailTokenPurpose;
  email: string;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  created_at: Generated<Date>;
}

export interface WorkspacesTable {
  id: Generated<string>;
  name: string;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  deleted_at: NullableTimestamp;
  deleted_by: string | null;
  audit_retention_days: Generated<number>;
  /** Members must have signed in through single sign-on (migration 20261207-3604). */
  require_sso: Generated<boolean>;
}

export interface MembershipsTable {
  workspace_id: string;
  user_id: string;
  role: RoleColumn;
  created_at: Generated<Date>;
}

export interface InvitesTable {
  id: Generated<string>;
  workspace_id: string;
  email: string;
  role: RoleColumn;
  token_hash: string;
  invited_by: string | null;
  expires_at: Timestamp;
  accepted_at: NullableTimestamp;
  accepted_by: string | null;
  revoked_at: NullableTimestamp;
  created_at: Generated<Date>;
}

export interface RateLimitsTable {
  key: string;
  window_start: Timestamp;
  count: number;
}

export interface MailOutboxTable {
  id: Generated<string>;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  created_at: Generated<Date>;
}

export interface BoardsTable {
  id: Generated<string>;
  workspace_id: string;
  parent_id: string | null;
  name: string;
  position: number;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  deleted_at: NullableTimestamp;
  deleted_by: string | null;
  delete_batch: string | null;
  /** Issue 33: a smart board holds a saved listing filter instead of filed assets. */
  kind: Generated<"normal" | "smart">;
  /** Read as the saved filter; written as its JSON text. */
  filter: ColumnType<SmartBoardFilter | null, string | null | undefined, string | null>;
}

export type AssetStatus = "uploading" | "processing" | "COMPLETED" | "error";
export type FileType = "IMAGE" | "VIDEO" | "DOCUMENT" | "AUDIO" | "ARCHIVE" | "OTHER";
export interface AssetsTable extends AssetVersionPointers, VersionFacts {
  id: Generated<string>;
  workspace_id: string;
  name: string;
  description: string | null;
  is_temp: Generated<boolean>;
  upload_board_id: string | null;
  uploaded_by: string | null;
  date_uploaded: Generated<Date>;
  updated_at: Generated<Date>;
  deleted_at: NullableTimestamp;
  deleted_by: string | null;
  delete_batch: string | null;
  /** Kept by triggers (migration 0005) for the listing's search; never written by app code. */
  search_text: Generated<string>;
  search_vector: Generated<string | null>;
  /** Lower-cased manual tag names and AI labels, kept by the same trigger (migration 0007) for tag filters. */
  tag_names: Generated<string[]>;
  ai_labels: Generated<string[]>;
  /** lower(name), generated and stored (migration 0008): the name order's index key. */
  name_sort: Generated<string>;
}

/** What the pipeline wrote under media/{directory}/, by role. */
export interface Renditions {
  thumbnail?: string;
  grid?: string;
  video?: string;
  /** Images: the 2560 px picture the viewer zooms into (when the original is not browser-safe). */
  large?: string;
  /** Videos: frame rate, and the scrub-bar sprite. */
  fps?: number;
  sprite?: { file: string; columns: number; rows: number; interval: number; width: number; height: number };
  pages?: Array<{ number: number; file: string; width: number; height: number; label?: string }>;
  preview_unavailable?: string;
}

export interface UploadsTable {
  id: Generated<string>;
  workspace_id: string;
  asset_id: string;
  key: string;
  kind: "direct" | "multipart";
  size: number;
  part_size: number;
  part_count: number;
  content_type: string;
  s3_upload_id: string | null;
  created_by: string | null;
  created_at: Generated<Date>;
  completed_at: NullableTimestamp;
  version_id: string | null; // the version it brings (null: the asset's first, whose id is the asset's)
}
export interface UploadPartsTable {
  upload_id: string;
  part_number: number;
  size: number;
  etag: string;
  sha256: string | null;
  updated_at: Generated<Date>;
}
export interface TagsTable {
  id: Generated<string>;
  workspace_id: string;
  name: string;
  created_at: Generated<Date>;
}
export interface AssetTagsTable {
  asset_id: string;
  tag_id: string;
}
export interface AiTagsTable {
  asset_id: string;
  workspace_id: string;
  label: string;
  confidence: number;
  type: Generated<string>;
}
export interface AppSecretsTable {
  name: string;
  value: string;
  created_at: Generated<Date>;
}

export interface BoardAssetsTable {
  board_id: string;
  asset_id: string;
  added_by: string | null;
  added_at: Generated<Date>;
}

export interface AssetFavoritesTable {
  user_id: string;
  asset_id: string;
  created_at: Generated<Date>;
}

/** One row per palette colour, kept from assets.palette by a trigger (migration 0005). */
export interface AssetColorsTable {
  asset_id: string;
  position: number;
  hex: string;
  share: number;
  l: number;
  a: number;
  b: number;
}

/** Custom fields (migration 20261124-0002). */
export interface CustomFieldsTable {
  id: Generated<string>;
  workspace_id: string;
  title: string;
  field_type: "SINGLE_SELECT" | "MULTI_SELECT" | "TEXT" | "DATE";
  position: Generated<number>;
  created_at: Generated<Date>;
}
export interface FieldOptionsTable {
  id: Generated<string>;
  field_id: string;
  label: string;
  color: string;
  position: Generated<number>;
}
export interface FieldValuesTable {
  id: Generated<string>;
  workspace_id: string;
  field_id: string;
  asset_id: string | null;
  board_id: string | null;
  option_id: string | null;
  multi_option_ids: Generated<string[]>;
  text_value: string | null;
  date_value: ColumnType<string | null, string | null | undefined, string | null>;
  set_by_user_id: string | null;
  set_by_name: string | null;
  set_by_action_id: string | null;
  set_at: Generated<Date>;
}

export interface DB {
  users: UsersTable;
  user_avatars: UserAvatarsTable;
  sessions: SessionsTable;
  sso_logins: SsoLoginsTable;
  email_tokens: EmailTokensTable;
  workspaces: WorkspacesTable;
  memberships: MembershipsTable;
  invites: InvitesTable;
  rate_limits: RateLimitsTable;
  mail_outbox: MailOutboxTable;
  boards: BoardsTable;
  assets: AssetsTable;
  asset_versions: AssetVersionsTable;
  board_assets: BoardAssetsTable;
  uploads: UploadsTable;
  upload_parts: UploadPartsTable;
  tags: TagsTable;
  asset_tags: AssetTagsTable;
  ai_tags: AiTagsTable;
  app_secrets: AppSecretsTable;
  asset_favorites: AssetFavoritesTable;
  asset_colors: AssetColorsTable;
  comments: CommentsTable;
  comment_mentions: CommentMentionsTable;
  custom_fields: CustomFieldsTable;
  field_options: FieldOptionsTable;
  field_values: FieldValuesTable;
  share_links: ShareLinksTable;
  share_link_activity: ShareLinkActivityTable;
  watermark_renditions: WatermarkRenditionsTable;
  billing_subscriptions: BillingSubscriptionsTable;
  billing_events: BillingEventsTable;
  billing_checkout_sessions: BillingCheckoutSessionsTable;
  file_requests: FileRequestsTable;
  file_request_uploads: FileRequestUploadsTable;
  ai_actions: AiActionsTable;
  ai_action_results: AiActionResultsTable;
  ai_action_runs: AiActionRunsTable;
  asset_vision: AssetVisionTable;
  reviews: ReviewsTable;
  review_stages: ReviewStagesTable;
  review_reviewers: ReviewReviewersTable;
  review_assets: ReviewAssetsTable;
  review_decisions: ReviewDecisionsTable;
  review_events: ReviewEventsTable;
  asset_hashes: AssetHashesTable;
  asset_hash_pairs: AssetHashPairsTable;
  duplicate_dismissals: DuplicateDismissalsTable;
  duplicate_settings: DuplicateSettingsTable;
  duplicate_groups: DuplicateGroupsTable;
  duplicate_near_changes: DuplicateNearChangesTable;
  api_keys: ApiKeysTable;
  personal_tokens: PersonalTokensTable;
  face_settings: FaceSettingsTable;
  people: PeopleTable;
  faces: FacesTable;
  face_rejections: FaceRejectionsTable;
  face_scans: FaceScansTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  asset_rights: AssetRightsTable;
  rights_notices: RightsNoticesTable;
  audit_events: AuditEventsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type WorkspaceRow = Selectable<WorkspacesTable>;
export type InviteRow = Selectable<InvitesTable>;
