import path from "node:path";
import type { Config } from "../config.ts";
import type { BlobStore } from "./blob-store.ts";
import { createDiskStore } from "./disk-store.ts";
import { createPrefixHasher } from "./prefix-hasher.ts";
import { createS3Store } from "./s3-store.ts";
import type { Signer } from "./signer.ts";

/** The store `STORAGE` names: disk under DATA_DIR/blobs, or the S3 bucket of the S3_* settings. */
export function createBlobStore(config: Config, signer: Signer): BlobStore {
  if (config.STORAGE === "s3") {
    // config.ts refuses STORAGE=s3 without these.
    return createS3Store({
      endpoint: config.S3_ENDPOINT,
      bucket: config.S3_BUCKET ?? "",
      region: config.S3_REGION,
      accessKeyId: config.S3_ACCESS_KEY_ID ?? "",
      secretAccessKey: config.S3_SECRET_ACCESS_KEY ?? "",
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
    });
  }
  return createDiskStore(path.join(config.dataDir, "blobs"), createPrefixHasher(), { signer });
}
