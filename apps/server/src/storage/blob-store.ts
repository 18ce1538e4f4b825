import type { Readable } from "node:stream";

export interface PutResult {
  size: number;
  /** Opaque, unique per write (S3 gives the part's MD5; clients only echo it back). */
  etag: string;
  sha256: string;
}

/**
 * Where bytes live (DESIGN.md §1): local disk by default, S3-compatible storage for many machines.
 * Keys are always server-generated (`media/{workspace}/{asset}/…`, `uploads/{upload}/…`).
 */
export interface BlobStore {
  readonly kind: "disk" | "s3";
  /** Streams into `key` atomically (temp file, fsync, rename); never holds the body in memory. */
  putStream(key: string, body: Readable, opts?: { maxBytes?: number }): Promise<PutResult>;
  /** Moves or copies a local file into `key` (renditions written by the pipeline). */
  putFile(key: string, localPath: string): Promise<void>;
  /** A byte range is inclusive, as in HTTP. */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  stat(key: string): Promise<{ size: number; mtime: Date } | null>;
  delete(key: string): Promise<void>;
  deletePrefix(prefix: string): Promise<void>;
  /**
   * Multipart uploads: writes one part at its byte offset inside the upload `uploadKey` (re-sending
   * overwrites it), durable before it answers. `sha256` only when the part is the whole file.
   */
  writePart(
    uploadKey: string,
    offset: number,
    body: Readable,
    opts: { maxBytes: number; sha256: boolean },
  ): Promise<PutResult>;
  /**
   * Turns the upload's parts into the object `dest`; hashes the whole unless `knownSha256` is given.
   * `parts` are the final parts (byte offset, ETag of the write that counts).
   */
  finishParts(
    uploadKey: string,
    dest: string,
    opts: { knownSha256?: string; parts: Array<{ offset: number; etag: string }> },
  ): Promise<{ size: number; sha256: string }>;
  /** Renames within the store (no copy where the store allows it). */
  move(from: string, to: string): Promise<void>;
  /** Concatenates `parts` into `dest` (streamed), answering the size and sha256 of the whole. */
  concat(parts: string[], dest: string): Promise<{ size: number; sha256: string }>;
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
