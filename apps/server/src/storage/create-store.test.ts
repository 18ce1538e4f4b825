import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../config.ts";
import { createBlobStore } from "./create-store.ts";
import { createSigner } from "./signer.ts";

const s3Env = {
  STORAGE: "s3",
  S3_ENDPOINT: "http://127.0.0.1:9000",
  S3_BUCKET: "hangar-media",
  S3_ACCESS_KEY_ID: "key",
  S3_SECRET_ACCESS_KEY: "secret",
  S3_FORCE_PATH_STYLE: "true",
};

describe("STORAGE settings", () => {
  it("names each S3 setting that is missing, and a bad bucket name", () => {
    expect(() => loadConfig({ STORAGE: "s3", S3_BUCKET: "hangar" })).toThrow(ConfigError);
    const message = (() => {
      try {
        loadConfig({ STORAGE: "s3", S3_BUCKET: "hangar", S3_SECRET_ACCESS_KEY: "" });
        return "";
      } catch (err) {
        return (err as Error).message;
      }
    })();
    expect(message).toMatch(/S3_ACCESS_KEY_ID: S3_ACCESS_KEY_ID is required when STORAGE=s3/);
    expect(message).toMatch(/S3_SECRET_ACCESS_KEY/);
    expect(message).not.toMatch(/S3_BUCKET/);
    expect(() => loadConfig({ ...s3Env, S3_BUCKET: "Not_A_Bucket" })).toThrow(/S3_BUCKET must be a valid bucket name/);
    expect(() => loadConfig({ ...s3Env, S3_ENDPOINT: "not a url" })).toThrow(/S3_ENDPOINT/);
    expect(() => loadConfig({ STORAGE: "ftp" })).toThrow(/STORAGE/);
  });

  it("builds the store STORAGE names", async () => {
    const signer = createSigner(async () => "x".repeat(32));
    const s3 = createBlobStore(loadConfig(s3Env), signer);
    expect(s3.kind).toBe("s3");
    expect(s3.localPath("media/a/b/original")).toBeNull();
    // Presigned URLs are path style on the endpoint, as S3_FORCE_PATH_STYLE asks.
    expect(await s3.presignGet("media/a/b/original", { ttlSeconds: 60 })).toMatch(
      /^http:\/\/127\.0\.0\.1:9000\/hangar-media\/media\/a\/b\/original\?/,
    );
    await s3.close?.();
    const disk = createBlobStore(loadConfig({ DATA_DIR: "/tmp/hangar-x" }), signer);
    expect(disk.kind).toBe("disk");
    expect(disk.localPath("media/a/b/original")).toBe(path.join("/tmp/hangar-x/blobs/media/a/b/original"));
    expect(await disk.presignGet("media/a/b/original", { ttlSeconds: 60 })).toBeNull();
    await disk.close?.();
  });
});
