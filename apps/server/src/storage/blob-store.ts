import type { Readable } from "node:stream";

export interface PutResult {
  size: number;
  /** Opaque, unique per write (S3 gives the part's MD5; clients only echo it back). */
  etag: string;
  sha256: string;
}

/** One upload as the store sees it (a row of `uploads`). */
export interface UploadRef {
  /** Our upload id: the parts route and staging keys are named after it. */
  id: string;
  /** The final key of the original. */
  key: string;
  size: number;
  partSize: number;
  partCount: number;
  kind: "direct" | "multipart";
  /** The store's own handle (S3's UploadId of a multipart upload); null on disk. */
  storeUploadId: string | null;
}

/** A part the store holds: its number, byte count and ETag (unquoted, lower case). */
export interface StoredPart {
  partNumber: number;
  size: number;
  etag: string;
}

/** A byte range is inclusive, as in HTTP. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where bytes live (docs/architecture.md §1): local disk by default, S3-compatible storage for many machines.
 * Keys are always server-generated (`media/{workspace}/{asset}/…`, `uploads/{upload}/…`).
 */
export interface BlobStore {
  readonly kind: "disk" | "s3";
  /** Streams into `key` atomically (no reader sees a partial object); never holds the whole body in memory. */
  putStream(key: string, body: Readable, opts?: { maxBytes?: number }): Promise<PutResult>;
  /** Moves or copies a local file into `key` (renditions written by the pipeline). */
  putFile(key: string, localPath: string): Promise<void>;
  read(key: string, range?: ByteRange): Promise<Readable>;
  stat(key: string): Promise<{ size: number; mtime: Date } | null>;
  delete(key: string): Promise<void>;
  deletePrefix(prefix: string): Promise<void>;
  /** Every object under `prefix` (keys in byte order), for backups and audits. */
  list(prefix: string): AsyncIterable<{ key: string; size: number }>;

  // ---- Uploads (the same protocol on every store: PUT to the URLs, then complete with the ETags) ----
  /** Prepares an upload; answers the store's handle to keep with it (S3's UploadId, or null). */
  beginUpload(upload: Omit<UploadRef, "storeUploadId">): Promise<{ storeUploadId: string | null }>;
  /** The URLs a client PUTs parts 1…partCount to, in order; a direct upload's one URL is its direct URL. */
  partUrls(upload: UploadRef, ttlSeconds: number): Promise<string[]>;
  /**
   * The parts the store itself received (S3: ListParts); `"assembled"` when the final object already
   * exists (a complete that got this far before); null when parts come through our own route and
   * are recorded in `upload_parts` (disk).
   */
  receivedParts(upload: UploadRef): Promise<StoredPart[] | "assembled" | null>;
  /**
   * Turns the received parts into the object `upload.key` and answers its size and sha256. Safe to
   * call again after a failure or a concurrent call. `knownSha256` skips hashing (disk direct uploads).
   */
  completeUpload(
    upload: UploadRef,
    parts: Array<{ partNumber: number; etag: string }>,
    opts?: { knownSha256?: string },
  ): Promise<{ size: number; sha256: string }>;
  /** Drops an upload never completed, with whatever bytes it received. */
  abortUpload(upload: UploadRef): Promise<void>;
  /**
   * A URL the browser GETs the object from directly (S3 presigned GET, with the download's name and
   * type), or null when the store has none and our signed /media URL serves it (disk).
   */
  presignGet(
    key: string,
    opts: { ttlSeconds: number; contentDisposition?: string; contentType?: string },
  ): Promise<string | null>;

  /**
   * Only stores whose parts come through our own signed route (disk): writes one part at its byte
   * offset inside the upload `uploadKey` (re-sending overwrites it), durable before it answers.
   * `sha256` only when the part is the whole file.
   */
  writePart?(
    uploadKey: string,
    offset: number,
    body: Readable,
    opts: { maxBytes: number; sha256: boolean },
  ): Promise<PutResult>;
  /** Renames within the store (no copy where the store allows it). */
  move(from: string, to: string): Promise<void>;
  /** A path readable by local tools (sharp, ffmpeg) without a copy, when the store is a disk. */
  localPath(key: string): string | null;
  /** Stops background threads (the disk store's hasher). */
  close?(): Promise<void>;
}

const KEY = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,500}$/;

/** Keys come from the server, but a wrong one must never escape the store's root. */
export function assertKey(key: string): void {
  if (!KEY.test(key) || key.split("/").some((seg) => seg === ".." || seg === "." || seg === "")) {
    throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
  }
}

export const mediaDirectory = (workspaceId: string, assetId: string) => `${workspaceId}/${assetId}`;
export const mediaKey = (directory: string, file: string) => `media/${directory}/${file}`;
export const originalKey = (directory: string) => mediaKey(directory, "original");
/** Where a multipart upload's bytes wait on disk, and a direct upload's object waits on S3. */
export const uploadStagingPrefix = (uploadId: string) => `uploads/${uploadId}`;
/** Our own route for part bytes (disk store): signed, no session needed, like a presigned URL. */
export const API_PART_PATH = (uploadId: string, n: number) => `/api/v1/uploads/${uploadId}/parts/${n}`;

/**
 * Origins browsers send bytes to or fetch them from directly (the S3 endpoint of presigned URLs),
 * for the page's Content-Security-Policy `connect-src`; none on disk, where every URL is ours.
 */
export async function directOrigins(store: BlobStore): Promise<string[]> {
  const probe = await store.presignGet("media/csp-probe", { ttlSeconds: 60 });
  return probe ? [new URL(probe).origin] : [];
}
