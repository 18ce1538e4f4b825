import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import type { Readable } from "node:stream";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { AppError, invalid } from "../platform/errors.ts";
import {
  assertKey,
  type BlobStore,
  type PutResult,
  type StoredPart,
  type UploadRef,
  uploadStagingPrefix,
} from "./blob-store.ts";
import { resignPresignedUrl } from "./sigv4.ts";
import { createUrlHasher, type UrlHasher } from "./url-hasher.ts";

export interface S3Settings {
  /** Unset for AWS itself; any S3-compatible server's URL otherwise. */
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `https://host/bucket/key` instead of `https://bucket.host/key` (MinIO, most self-hosted servers). */
  forcePathStyle: boolean;
}

/** Parts of streams we write ourselves (folder uploads, renditions): S3's minimum is 5 MiB. */
const PUT_PART_BYTES = 8 * 1024 * 1024;
/** CopyObject's limit; bigger objects are copied through us. */
const COPY_MAX_BYTES = 5 * 1024 ** 3;
/** How long the worker thread's presigned GET (for hashing) stays valid. */
const HASH_URL_TTL_SECONDS = 6 * 3600;

const unquote = (etag: string | undefined) => (etag ?? "").replace(/^W\//, "").replace(/"/g, "").trim().toLowerCase();

/** The S3 error's code, whatever the SDK put it in (name, Code, or only the HTTP status for HEAD). */
function s3Code(err: unknown): string {
  const e = err as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
  if (e?.$metadata?.httpStatusCode === 404 && (e.name === "NotFound" || e.name === "Unknown")) return "NotFound";
  return e?.Code ?? e?.name ?? "";
}
const isMissing = (err: unknown) => ["NotFound", "NoSuchKey"].includes(s3Code(err));

export function createS3Client(s: S3Settings): S3Client {
  return new S3Client({
    endpoint: s.endpoint,
    region: s.region,
    forcePathStyle: s.forcePathStyle,
    credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey },
    // Checksums only where S3 requires them: the SDK's default puts a CRC of an empty body into
    // presigned PUT URLs (the browser's bytes would then fail it) and some S3-compatible servers
    // reject the trailers.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    // Media streams stay open while a client reads them: more sockets than the SDK's default 50.
    requestHandler: {
      httpAgent: new HttpAgent({ keepAlive: true, maxSockets: 256 }),
      httpsAgent: new HttpsAgent({ keepAlive: true, maxSockets: 256 }),
      connectionTimeout: 10_000,
    },
  });
}

/**
 * The BlobStore on any S3-compatible server (docs/architecture.md §1, many machines). Browsers PUT upload
 * bytes straight to presigned URLs: a direct upload to a staging key (copied to the final key at
 * complete, so the still-valid URL can never overwrite an original), a multipart upload to the final
 * key (gone with its URLs once completed). The sha256 of every upload is computed at complete by
 * streaming the object back in a worker thread.
 */
export function createS3Store(s: S3Settings, opts: { client?: S3Client; hasher?: UrlHasher } = {}): BlobStore {
  const client = opts.client ?? createS3Client(s);
  const hasher = opts.hasher ?? createUrlHasher();
  const Bucket = s.bucket;
  const k = (key: string) => {
    assertKey(key);
    return key;
  };
  const directKey = (upload: { id: string }) => `${uploadStagingPrefix(upload.id)}/data`;
  const expectedPartSize = (u: UploadRef, n: number) => Math.min(u.size, n * u.partSize) - (n - 1) * u.partSize;

  async function head(key: string) {
    try {
      const h = await client.send(new HeadObjectCommand({ Bucket, Key: k(key) }));
      return { size: Number(h.ContentLength ?? 0), mtime: h.LastModified ?? new Date(0), etag: unquote(h.ETag) };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async function* listKeys(prefix: string): AsyncGenerator<{ key: string; size: number }> {
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken }));
      for (const o of page.Contents ?? []) if (o.Key) yield { key: o.Key, size: Number(o.Size ?? 0) };
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  async function deletePrefix(prefix: string) {
    // A prefix names a "directory", as on disk: media/ws/asset must not take media/ws/asset2 with it.
    const dir = prefix.endsWith("/") ? prefix : `${prefix}/`;
    k(dir.slice(0, -1));
    let batch: string[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const Objects = batch.map((Key) => ({ Key }));
      batch = [];
      const res = await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects, Quiet: true } }));
      if (res.Errors?.length) throw new Error(`S3 could not delete ${res.Errors.length} objects under ${dir}`);
    };
    for await (const o of listKeys(dir)) {
      batch.push(o.key);
      if (batch.length === 1000) await flush();
    }
    await flush();
  }

  /** Streams into `key` in 8 MiB parts (one PutObject when smaller): memory stays bounded, no temp file. */
  async function putStream(key: string, body: Readable, o: { maxBytes?: number } = {}): Promise<PutResult> {
    const Key = k(key);
    const sha = createHash("sha256");
    let size = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let uploadId: string | undefined;
    const parts: Array<{ PartNumber: number; ETag: string }> = [];
    const sendPart = async () => {
      uploadId ??= (await client.send(new CreateMultipartUploadCommand({ Bucket, Key }))).UploadId;
      const PartNumber = parts.length + 1;
      const Body = Buffer.concat(pending);
      pending = [];
      pendingBytes = 0;
      const r = await client.send(new UploadPartCommand({ Bucket, Key, UploadId: uploadId, PartNumber, Body }));
      parts.push({ PartNumber, ETag: r.ETag ?? "" });
    };
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (o.maxBytes !== undefined && size > o.maxBytes) {
          throw new AppError("PAYLOAD_TOO_LARGE", `The body is larger than the ${o.maxBytes} bytes expected.`);
        }
        sha.update(chunk);
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes >= PUT_PART_BYTES) await sendPart();
      }
      if (uploadId === undefined) {
        const r = await client.send(
          new PutObjectCommand({ Bucket, Key, Body: Buffer.concat(pending), ContentLength: pendingBytes }),
        );
        return { size, etag: unquote(r.ETag), sha256: sha.digest("hex") };
      }
      if (pendingBytes > 0) await sendPart();
      const r = await client.send(
        new CompleteMultipartUploadCommand({ Bucket, Key, UploadId: uploadId, MultipartUpload: { Parts: parts } }),
      );
      return { size, etag: unquote(r.ETag), sha256: sha.digest("hex") };
    } catch (err) {
      if (uploadId)
        await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId: uploadId })).catch(() => {});
      throw err;
    }
  }

  async function presignGet(key: string, o: { ttlSeconds: number; contentDisposition?: string; contentType?: string }) {
    const cmd = new GetObjectCommand({
      Bucket,
      Key: k(key),
      ResponseContentDisposition: o.contentDisposition,
      ResponseContentType: o.contentType,
    });
    return getSignedUrl(client, cmd, { expiresIn: o.ttlSeconds });
  }

  /** Size and sha256 of the final object, read back in a worker thread. */
  async function hashObject(key: string, expectedSize: number) {
    const got = await hasher.hash(await presignGet(key, { ttlSeconds: HASH_URL_TTL_SECONDS }));
    if (got.size !== expectedSize) throw new Error(`${key}: read back ${got.size} bytes, expected ${expectedSize}`);
    return got;
  }

  return {
    kind: "s3",
    putStream,
    async putFile(key, localPath) {
      await putStream(key, createReadStream(localPath, { highWaterMark: 1 << 20 }));
    },
    async read(key, range) {
      const r = await client.send(
        new GetObjectCommand({ Bucket, Key: k(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
      );
      return r.Body as Readable;
    },
    async stat(key) {
      const h = await head(key);
      return h && { size: h.size, mtime: h.mtime };
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: k(key) }));
    },
    deletePrefix,
    list: (prefix) => listKeys(prefix),
    async move(from, to) {
      const h = await head(from);
      if (!h) throw new Error(`move: ${from} does not exist`);
      if (h.size <= COPY_MAX_BYTES) {
        await client.send(new CopyObjectCommand({ Bucket, Key: k(to), CopySource: `${Bucket}/${k(from)}` }));
      } else {
        const r = await client.send(new GetObjectCommand({ Bucket, Key: from }));
        await putStream(to, r.Body as Readable);
      }
      await client.send(new DeleteObjectCommand({ Bucket, Key: from }));
    },

    async beginUpload(upload) {
      if (upload.kind === "direct") return { storeUploadId: null };
      const r = await client.send(new CreateMultipartUploadCommand({ Bucket, Key: k(upload.key) }));
      if (!r.UploadId) throw new Error("S3 answered CreateMultipartUpload without an UploadId");
      return { storeUploadId: r.UploadId };
    },
    async partUrls(upload, ttlSeconds) {
      // Each part's exact length is signed: S3 refuses a body of any other size.
      if (upload.kind === "direct") {
        const put = new PutObjectCommand({ Bucket, Key: directKey(upload), ContentLength: upload.size });
        return [await getSignedUrl(client, put, { expiresIn: ttlSeconds })];
      }
      const first = new UploadPartCommand({
        Bucket,
        Key: k(upload.key),
        UploadId: upload.storeUploadId ?? "",
        PartNumber: 1,
        ContentLength: expectedPartSize(upload, 1),
      });
      const template = await getSignedUrl(client, first, { expiresIn: ttlSeconds });
      const urls = [template];
      for (let n = 2; n <= upload.partCount; n++) {
        urls.push(
          resignPresignedUrl(template, s.secretAccessKey, {
            method: "PUT",
            query: { partNumber: String(n) },
            headers: { "content-length": String(expectedPartSize(upload, n)) },
          }),
        );
      }
      return urls;
    },
    async receivedParts(upload) {
      if (upload.kind === "direct") {
        const staged = await head(directKey(upload));
        if (staged) return [{ partNumber: 1, size: staged.size, etag: staged.etag }];
        return (await head(upload.key)) ? "assembled" : [];
      }
      const parts: StoredPart[] = [];
      let PartNumberMarker: string | undefined;
      try {
        do {
          const page = await client.send(
            new ListPartsCommand({
              Bucket,
              Key: k(upload.key),
              UploadId: upload.storeUploadId ?? "",
              PartNumberMarker,
            }),
          );
          for (const p of page.Parts ?? []) {
            parts.push({ partNumber: Number(p.PartNumber), size: Number(p.Size ?? 0), etag: unquote(p.ETag) });
          }
          PartNumberMarker = page.IsTruncated ? String(page.NextPartNumberMarker ?? "") : undefined;
        } while (PartNumberMarker);
      } catch (err) {
        if (s3Code(err) !== "NoSuchUpload") throw err;
        // Completed by an earlier call (S3 forgets the upload then), or aborted.
        return (await head(upload.key)) ? "assembled" : [];
      }
      return parts;
    },
    async completeUpload(upload, parts) {
      if (upload.kind === "direct") {
        const etag = parts.find((p) => p.partNumber === 1)?.etag;
        try {
          // If-Match: exactly the bytes whose ETag the client named, even if the URL is used again.
          await client.send(
            new CopyObjectCommand({
              Bucket,
              Key: k(upload.key),
              CopySource: `${Bucket}/${directKey(upload)}`,
              CopySourceIfMatch: etag ? `"${unquote(etag)}"` : undefined,
            }),
          );
        } catch (err) {
          const code = s3Code(err);
          if (code === "PreconditionFailed") throw invalid("Part 1: the ETag does not match the uploaded bytes.");
          if (!isMissing(err) || !(await head(upload.key))) throw err;
        }
        await client.send(new DeleteObjectCommand({ Bucket, Key: directKey(upload) })).catch(() => {});
      } else {
        try {
          await client.send(
            new CompleteMultipartUploadCommand({
              Bucket,
              Key: k(upload.key),
              UploadId: upload.storeUploadId ?? "",
              MultipartUpload: {
                Parts: [...parts]
                  .sort((a, b) => a.partNumber - b.partNumber)
                  .map((p) => ({ PartNumber: p.partNumber, ETag: `"${unquote(p.etag)}"` })),
              },
            }),
          );
        } catch (err) {
          const code = s3Code(err);
          if (code === "InvalidPart" || code === "InvalidPartOrder" || code === "EntityTooSmall") {
            throw invalid(`The parts do not match the uploaded bytes (${code}).`, [{ field: "parts", message: code }]);
          }
          // A concurrent or earlier complete won: the object is there.
          if (code !== "NoSuchUpload" || !(await head(upload.key))) throw err;
        }
      }
      const h = await head(upload.key);
      if (!h) throw new Error(`${upload.key} is missing after completing its upload`);
      return hashObject(upload.key, h.size);
    },
    async abortUpload(upload) {
      if (upload.kind === "direct") {
        await client.send(new DeleteObjectCommand({ Bucket, Key: directKey(upload) }));
        return;
      }
      if (!upload.storeUploadId) return;
      try {
        await client.send(
          new AbortMultipartUploadCommand({ Bucket, Key: k(upload.key), UploadId: upload.storeUploadId }),
        );
      } catch (err) {
        if (s3Code(err) !== "NoSuchUpload") throw err;
      }
    },
    presignGet,
    localPath: () => null,
    async close() {
      await hasher.close();
      client.destroy();
    },
  };
}
