import { createHash } from "node:crypto";
import type { UploadInitAnswer } from "@hangar/contract";
import sharp from "sharp";
import { type Client, putBytes, type TestEnv } from "./harness.ts";

/** A small PNG of one colour (each colour its own bytes). */
export const png = (background: string, width = 320, height = 200) =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

export const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

/**
 * Uploads bytes through the real protocol with extra fields at its start (`version_of`, `sha256`):
 * direct or multipart, completed as the web app does. Answers the start's answer.
 */
export async function uploadWith(
  client: Client,
  workspaceId: string,
  fields: { name: string; version_of?: string; sha256?: string; board_id?: string },
  data: Buffer,
): Promise<UploadInitAnswer> {
  const init = await client.post(`/workspaces/${workspaceId}/assets/upload`, { ...fields, size: data.length });
  if (init.statusCode !== 200) throw new Error(`upload init failed: ${init.statusCode} ${init.body}`);
  const answer = init.json() as UploadInitAnswer;
  const complete = async (parts: Array<{ part_number: number; etag: string }>) => {
    const done = await client.post(`/workspaces/${workspaceId}/assets/upload/complete`, {
      upload_id: answer.upload_id,
      key: answer.key,
      parts,
    });
    if (done.statusCode !== 200) throw new Error(`complete failed: ${done.statusCode} ${done.body}`);
  };
  if (answer.direct_url) {
    const r = await putBytes(client.app, answer.direct_url, data);
    if (r.statusCode !== 200) throw new Error(`direct PUT failed: ${r.statusCode} ${r.body}`);
    // On disk the one PUT finishes a direct upload; on S3 the client completes it.
    if (/^https?:/.test(answer.direct_url)) await complete([{ part_number: 1, etag: r.headers.etag as string }]);
    return answer;
  }
  const parts = [];
  for (const p of answer.parts ?? []) {
    const r = await putBytes(client.app, p.url, data.subarray(p.start_byte, p.end_byte + 1));
    if (r.statusCode !== 200) throw new Error(`part PUT failed: ${r.statusCode} ${r.body}`);
    parts.push({ part_number: p.part_number, etag: r.headers.etag as string });
  }
  await complete(parts);
  return answer;
}

/**
 * Runs the pipeline's job for an asset's version now, in this process (tests whose env has no
 * workers, so they see the asset before and after its version is processed).
 */
export async function processNow(env: TestEnv, assetId: string, versionId?: string) {
  const job = env.rt.jobDefinitions.find((d) => d.name === "process-asset");
  if (!job) throw new Error("no process-asset job");
  await job.handle({ asset_id: assetId, ...(versionId ? { version_id: versionId } : {}) }, { retryCount: 0 });
}

/** An asset uploaded and processed (env without workers): its id. */
export async function processedAsset(env: TestEnv, client: Client, workspaceId: string, name: string, data: Buffer) {
  const a = await uploadWith(client, workspaceId, { name }, data);
  await processNow(env, a.asset_id);
  return a.asset_id;
}

/** A version uploaded (and processed unless `process` is false): the start's answer. */
export async function newVersion(
  env: TestEnv,
  client: Client,
  workspaceId: string,
  assetId: string,
  name: string,
  data: Buffer,
  opts: { process?: boolean } = {},
) {
  const v = await uploadWith(client, workspaceId, { name, version_of: assetId }, data);
  if (opts.process !== false) await processNow(env, assetId, v.version_id);
  return v;
}
