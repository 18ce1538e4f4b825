import { UploadPartCommand } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { describe, expect, it } from "vitest";
import { createS3Client } from "./s3-store.ts";
import { resignPresignedUrl } from "./sigv4.ts";

describe("resignPresignedUrl", () => {
  for (const style of [
    { name: "path style, custom endpoint", endpoint: "http://127.0.0.1:9000", forcePathStyle: true },
    { name: "virtual host on AWS", endpoint: undefined, forcePathStyle: false },
  ]) {
    it(`gives exactly the SDK's URL for another part (${style.name})`, async () => {
      const settings = {
        ...style,
        bucket: "hangar-media",
        region: "eu-west-3",
        accessKeyId: "AKIDEXAMPLE",
        secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
      };
      const client = createS3Client(settings);
      const signingDate = new Date("2026-11-21T10:00:00Z");
      const sdk = (PartNumber: number, ContentLength: number) =>
        getSignedUrl(
          client,
          new UploadPartCommand({
            Bucket: settings.bucket,
            Key: "media/ws/asset/original",
            UploadId: "2~AbC/+=uploadId",
            PartNumber,
            ContentLength,
          }),
          { expiresIn: 86_400, signingDate },
        );
      const template = await sdk(1, 8 * 1024 * 1024);
      for (const [n, len] of [
        [2, 8 * 1024 * 1024],
        [37, 1234],
      ] as const) {
        const mine = resignPresignedUrl(template, settings.secretAccessKey, {
          method: "PUT",
          query: { partNumber: String(n) },
          headers: { "content-length": String(len) },
        });
        const theirs = new URL(await sdk(n, len));
        const ours = new URL(mine);
        expect(ours.origin + ours.pathname).toBe(theirs.origin + theirs.pathname);
        expect(Object.fromEntries(ours.searchParams)).toEqual(Object.fromEntries(theirs.searchParams));
      }
      // The template itself re-signs to itself: the canonical form matches the SDK's.
      const same = resignPresignedUrl(template, settings.secretAccessKey, {
        method: "PUT",
        query: {},
        headers: { "content-length": String(8 * 1024 * 1024) },
      });
      expect(new URL(same).searchParams.get("X-Amz-Signature")).toBe(
        new URL(template).searchParams.get("X-Amz-Signature"),
      );
      client.destroy();
    });
  }
});
