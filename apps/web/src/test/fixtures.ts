import { Asset, AssetVersion, Comment, DEFAULT_SHARE_FLAGS, ShareLinkWithActivity } from "@hangar/contract";

/**
 * Contract-valid data for component tests, each parsed with its zod schema: a fixture that no longer
 * matches what the server sends fails where it is built, not as a puzzling render.
 */
let seq = 0;
/** A fresh UUID-shaped id (the contract's Id is a UUID). */
export const anId = () => `00000000-0000-4000-8000-${String(++seq).padStart(12, "0")}`;

const AT = "2026-03-01T10:00:00.000Z";

export const WORKSPACE_ID = "11111111-1111-4111-8111-111111111111";
export const BOARD_ID = "22222222-2222-4222-8222-222222222222";

export function aShareLink(overrides: Partial<ShareLinkWithActivity> = {}): ShareLinkWithActivity {
  return ShareLinkWithActivity.parse({
    ...DEFAULT_SHARE_FLAGS,
    id: anId(),
    token: "tok_abc",
    path: "/s/tok_abc",
    content_type: "asset",
    object_id: anId(),
    board_id: BOARD_ID,
    is_active: true,
    expires_at: null,
    has_password: false,
    watermark: null,
    created_at: AT,
    updated_at: AT,
    activity: [],
    ...overrides,
  });
}

export function anAsset(overrides: Partial<Asset> = {}): Asset {
  return Asset.parse({
    id: anId(),
    abilities: { edit: true, delete: true, comment: true, share: true, download: true },
    workspace_id: WORKSPACE_ID,
    name: "harbour.jpg",
    description: null,
    file_type: "IMAGE",
    file_extension: "jpg",
    mime_type: "image/jpeg",
    size: 1024,
    status: "COMPLETED",
    error: null,
    url: "/media/a/original.jpg",
    thumbnail_url: null,
    grid_url: null,
    video_url: null,
    large_url: null,
    fps: null,
    sprite: null,
    placeholder: null,
    directory: "a",
    favorite: false,
    open_comment_count: 0,
    field_chips: [],
    tags: [],
    ai_tags: [],
    ai_tag_details: [],
    boards: [],
    width: 800,
    height: 600,
    duration: null,
    page_count: null,
    pages: [],
    preview_unavailable: null,
    upload_board_id: null,
    is_temp: false,
    sha256: null,
    exif: null,
    colors: null,
    quality: null,
    date_uploaded: AT,
    created_at: AT,
    updated_at: AT,
    ...overrides,
  });
}

export function aComment(overrides: Partial<Comment> = {}): Comment {
  const id = overrides.id ?? anId();
  return Comment.parse({
    id,
    text: "Looks good",
    author: { id: anId(), first_name: "Ada", last_name: "Lovelace", avatar_url: null },
    author_display: "Ada Lovelace",
    created_at: AT,
    updated_at: AT,
    parent_id: null,
    thread_id: id,
    content_type: "asset",
    object_id: anId(),
    board_id: null,
    severity: "none",
    annotation_type: "NONE",
    x: null,
    y: null,
    width: null,
    height: null,
    page: null,
    timestamp: null,
    duration: null,
    reply_count: 0,
    resolved: false,
    resolved_at: null,
    resolved_by: null,
    mentions: [],
    share_link_id: null,
    abilities: { edit: true, delete: true, reply: true, resolve: true },
    ...overrides,
  });
}

/** A version of an asset (issue 29): COMPLETED, by Ada, with no comments, unless told otherwise. */
export function aVersion(overrides: Partial<AssetVersion> = {}): AssetVersion {
  const id = overrides.id ?? anId();
  return AssetVersion.parse({
    id,
    asset_id: anId(),
    number: 1,
    is_current: false,
    name: "harbour.jpg",
    status: "COMPLETED",
    error: null,
    file_type: "IMAGE",
    file_extension: "jpg",
    mime_type: "image/jpeg",
    size: 2048,
    sha256: null,
    width: 800,
    height: 600,
    duration: null,
    page_count: null,
    url: `/media/${id}/original.jpg`,
    thumbnail_url: `/media/${id}/thumb.jpg`,
    grid_url: null,
    large_url: null,
    video_url: null,
    fps: null,
    sprite: null,
    placeholder: null,
    pages: [],
    preview_unavailable: null,
    comment_count: 0,
    open_comment_count: 0,
    created_at: AT,
    uploaded_by: { id: anId(), name: "Ada Lovelace" },
    made_current_at: null,
    made_current_by: null,
    duplicate_of: null,
    ...overrides,
  });
}
