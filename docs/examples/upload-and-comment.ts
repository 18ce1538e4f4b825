/**
 * Upload a file into a workspace and comment on it with an API key, through a client generated from
 * Hangar's OpenAPI document (README "Use the API"). Made once per server version:
 *
 *   npx openapi-typescript http://localhost:8080/api/docs/json -o hangar-api.d.ts
 *   npm install openapi-fetch
 *
 * apps/server/src/platform/openapi-client.test.ts generates the client from a real server, compiles
 * this file against it and runs it.
 */
import createClient from "openapi-fetch";
import type { paths } from "./hangar-api";

export interface UploadAndComment {
  /** Where Hangar answers, e.g. http://localhost:8080 */
  baseUrl: string;
  /** A workspace API key (hgr_…) with the scopes assets:read, assets:write and comments:write. */
  apiKey: string;
  workspaceId: string;
  file: { name: string; type: string; bytes: Uint8Array };
  comment: string;
  /** How often to look whether the file is processed (ms). */
  pollMs?: number;
}

export async function uploadAndComment(o: UploadAndComment) {
  const api = createClient<paths>({ baseUrl: o.baseUrl, headers: { Authorization: `Bearer ${o.apiKey}` } });
  const id = o.workspaceId;
  const size = o.file.bytes.byteLength;

  // 1. Start the upload: the answer says where to PUT the bytes (one URL, or one per part).
  const start = await api.POST("/api/v1/workspaces/{id}/assets/upload", {
    params: { path: { id } },
    body: { name: o.file.name, size, content_type: o.file.type },
  });
  if (!start.data) throw new Error(`Upload start: ${start.error?.detail}`);
  const { asset_id: assetId, upload_id, key, direct_url, parts = [] } = start.data;

  // 2. PUT each part's bytes to its signed URL (no key needed); each answers an ETag.
  const targets = direct_url ? [{ part_number: 1, start_byte: 0, end_byte: size - 1, url: direct_url }] : parts;
  const sent: Array<{ part_number: number; etag: string }> = [];
  for (const part of targets) {
    const bytes = o.file.bytes.slice(part.start_byte, part.end_byte + 1);
    const res = await fetch(new URL(part.url, o.baseUrl), { method: "PUT", body: bytes });
    if (!res.ok) throw new Error(`PUT part ${part.part_number}: HTTP ${res.status}`);
    sent.push({ part_number: part.part_number, etag: res.headers.get("ETag") ?? "" });
  }

  // 3. Complete it (a one-URL upload completed with its PUT; completing again is harmless).
  const done = await api.POST("/api/v1/workspaces/{id}/assets/upload/complete", {
    params: { path: { id } },
    body: { upload_id, key, parts: sent },
  });
  if (!done.data) throw new Error(`Upload complete: ${done.error?.detail}`);

  // 4. Wait until the server has processed the file.
  for (;;) {
    const asset = await api.GET("/api/v1/workspaces/{id}/assets/{assetId}", { params: { path: { id, assetId } } });
    if (!asset.data) throw new Error(`Asset: ${asset.error?.detail}`);
    if (asset.data.status === "error") throw new Error(`Processing failed: ${asset.data.error}`);
    if (asset.data.status === "COMPLETED") break;
    await new Promise((resolve) => setTimeout(resolve, o.pollMs ?? 500));
  }

  // 5. Comment on it.
  const comment = await api.POST("/api/v1/workspaces/{id}/comments", {
    params: { path: { id } },
    body: { content_type: "asset", object_id: assetId, text: o.comment },
  });
  if (!comment.data) throw new Error(`Comment: ${comment.error?.detail}`);
  return { assetId, commentId: comment.data.id };
}
