import { createHash, createHmac } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";

/**
 * A real S3-protocol server on loopback for tests: s3rver (Koa, objects in a temp directory), with
 * a bucket whose CORS rules allow browser PUTs and expose ETag (as the README asks of a real bucket).
 *
 * s3rver leaves out a few things real S3 does; a small front middleware adds them, as S3 documents
 * them, so the tests can fail where production would:
 *  - SigV4 presigned URLs are verified (s3rver accepts any signature): a forged or edited URL, or a
 *    body whose length differs from a signed Content-Length, is refused with SignatureDoesNotMatch.
 *  - ListParts and AbortMultipartUpload (s3rver answers 405), NoSuchUpload for unknown uploads.
 *  - CompleteMultipartUpload checks every part's ETag (InvalidPart), as S3 does.
 *  - CopyObject honours x-amz-copy-source-if-match (PreconditionFailed).
 */
export interface S3TestServer {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The S3_* environment for a Hangar process using this server. */
  env: Record<string, string>;
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);
type Ctx = {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | undefined>;
  req: NodeJS.ReadableStream & { url?: string };
  store: { getMetadata(bucket: string, key: string): Promise<{ etag: string }> };
  status: number;
  type: string;
  body: unknown;
  get(name: string): string;
};

const ACCESS_KEY = "S3RVER"; // s3rver's built-in account
const SECRET_KEY = "S3RVER";

export const corsXml = (origins: string[] = ["*"]) => `<CORSConfiguration>
  <CORSRule>
    ${origins.map((o) => `<AllowedOrigin>${o}</AllowedOrigin>`).join("\n    ")}
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>HEAD</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <ExposeHeader>ETag</ExposeHeader>
    <MaxAgeSeconds>3000</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;

export async function startS3Server(opts: { bucket?: string; corsOrigins?: string[] } = {}): Promise<S3TestServer> {
  const S3rver = require("s3rver");
  const S3Error = require("s3rver/lib/models/error");
  const dir = await mkdtemp(path.join(os.tmpdir(), "hangar-s3rver-"));
  const bucket = opts.bucket ?? "hangar-test";
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: bucket, configs: [corsXml(opts.corsOrigins)] }],
  });
  const uploadsDir = (b: string, id: string) => path.join(dir, b, "._S3rver_uploads", id);
  const exists = (p: string) =>
    stat(p).then(
      () => true,
      () => false,
    );

  async function realS3(ctx: Ctx, next: () => Promise<void>) {
    if (ctx.method === "OPTIONS") return next();
    if ("X-Amz-Signature" in ctx.query) verifyPresigned(ctx, S3Error);
    const m = /^\/([^/]+)\/(.+)$/.exec(ctx.path);
    const uploadId = ctx.query.uploadId;
    if (!m || uploadId === undefined) {
      const source = ctx.headers["x-amz-copy-source"];
      const ifMatch = ctx.headers["x-amz-copy-source-if-match"];
      if (ctx.method === "PUT" && source && ifMatch) {
        const [, sb, sk] = /^\/?([^/]+)\/(.+)$/.exec(decodeURIComponent(source)) ?? [];
        const meta = await ctx.store.getMetadata(sb ?? "", sk ?? "").catch(() => null);
        if (!meta) throw new S3Error("NoSuchKey", "The specified key does not exist.");
        if (meta.etag.replace(/"/g, "") !== ifMatch.replace(/"/g, "")) {
          throw new S3Error("PreconditionFailed", "At least one of the pre-conditions you specified did not hold");
        }
      }
      return next();
    }
    const [, b, _key] = m as unknown as [string, string, string];
    const up = uploadsDir(b, uploadId);
    if (!(await exists(up)) && ctx.method !== "POST") {
      throw new S3Error("NoSuchUpload", "The specified upload does not exist.", { UploadId: uploadId });
    }
    if (ctx.method === "GET") {
      // ListParts
      const names = (await readdir(up)).filter((n) => /^\d+$/.test(n)).sort((x, y) => Number(x) - Number(y));
      const parts = await Promise.all(
        names.map(async (n) => {
          const [md5, s] = await Promise.all([readFile(path.join(up, `${n}.md5`), "utf8"), stat(path.join(up, n))]);
          return `<Part><PartNumber>${n}</PartNumber><ETag>"${md5}"</ETag><Size>${s.size}</Size><LastModified>${s.mtime.toISOString()}</LastModified></Part>`;
        }),
      );
      ctx.status = 200;
      ctx.type = "application/xml";
      ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<ListPartsResult><Bucket>${b}</Bucket><Key>${_key}</Key><UploadId>${uploadId}</UploadId><IsTruncated>false</IsTruncated>${parts.join("")}</ListPartsResult>`;
      return;
    }
    if (ctx.method === "DELETE") {
      await rm(up, { recursive: true, force: true });
      ctx.status = 204;
      ctx.body = "";
      return;
    }
    if (ctx.method === "POST") {
      if (!(await exists(up))) {
        throw new S3Error("NoSuchUpload", "The specified upload does not exist.", { UploadId: uploadId });
      }
      const chunks: Buffer[] = [];
      for await (const c of ctx.req as AsyncIterable<Buffer>) chunks.push(c);
      const xml = Buffer.concat(chunks);
      for (const p of xml.toString("utf8").matchAll(/<Part>([\s\S]*?)<\/Part>/g)) {
        const n = /<PartNumber>(\d+)<\/PartNumber>/.exec(p[1] ?? "")?.[1];
        const etag = /<ETag>([^<]*)<\/ETag>/.exec(p[1] ?? "")?.[1]?.replace(/&quot;|"/g, "");
        const md5 = await readFile(path.join(up, `${n}.md5`), "utf8").catch(() => null);
        if (!md5 || md5 !== etag) {
          throw new S3Error(
            "InvalidPart",
            "One or more of the specified parts could not be found or its ETag did not match.",
          );
        }
      }
      ctx.req = Readable.from([xml]) as unknown as Ctx["req"];
    }
    return next();
  }

  (server as { middleware: unknown[] }).middleware.unshift(realS3);
  const address = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    bucket,
    accessKeyId: ACCESS_KEY,
    secretAccessKey: SECRET_KEY,
    env: {
      STORAGE: "s3",
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: ACCESS_KEY,
      S3_SECRET_ACCESS_KEY: SECRET_KEY,
      S3_FORCE_PATH_STYLE: "true",
    },
    async close() {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** RFC 3986 encoding, as SigV4 canonical requests use. */
const rfc3986 = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const hmac = (key: Buffer | string, data: string) => createHmac("sha256", key).update(data).digest();

/** SigV4 query-string authentication, checked as S3 does (docs: "Authenticating Requests: Using Query Parameters"). */
function verifyPresigned(ctx: Ctx, S3Error: new (code: string, message: string) => Error) {
  const q = ctx.query;
  const [accessKey, date, region, service] = (q["X-Amz-Credential"] ?? "").split("/");
  const signedHeaders = (q["X-Amz-SignedHeaders"] ?? "").split(";");
  const rawPath = (ctx.req.url ?? "/").split("?")[0] ?? "/";
  const query = Object.keys(q)
    .filter((key) => key !== "X-Amz-Signature")
    .sort()
    .map((key) => `${rfc3986(key)}=${rfc3986(String(q[key]))}`)
    .join("&");
  const headers = signedHeaders.map((h) => `${h}:${(ctx.get(h) ?? "").trim().replace(/ +/g, " ")}\n`).join("");
  const canonical = [ctx.method, rawPath, query, headers, signedHeaders.join(";"), "UNSIGNED-PAYLOAD"].join("\n");
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = [
    "AWS4-HMAC-SHA256",
    q["X-Amz-Date"],
    scope,
    createHash("sha256").update(canonical).digest("hex"),
  ].join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${SECRET_KEY}`, date ?? ""), region ?? ""), service ?? ""), "aws4_request");
  const expected = createHmac("sha256", key).update(toSign).digest("hex");
  if (accessKey !== ACCESS_KEY || expected !== q["X-Amz-Signature"]) {
    throw new S3Error(
      "SignatureDoesNotMatch",
      "The request signature we calculated does not match the signature you provided.",
    );
  }
  // A correctly signed URL still ends at X-Amz-Date + X-Amz-Expires (at most a week), as S3 enforces.
  const expires = Number(q["X-Amz-Expires"]);
  if (!Number.isInteger(expires) || expires < 0 || expires > 604_800) {
    throw new S3Error("AuthorizationQueryParametersError", "X-Amz-Expires must be between 0 and 604800 seconds");
  }
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(q["X-Amz-Date"] ?? "");
  if (!m) throw new S3Error("AuthorizationQueryParametersError", "X-Amz-Date must be in the ISO8601 Long Format");
  const signedAt = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
  if (Date.now() > signedAt + expires * 1000) throw new S3Error("AccessDenied", "Request has expired");
}
