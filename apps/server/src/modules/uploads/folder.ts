import { randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import { inWorkspace } from "../../platform/access.ts";
import type { UserActor } from "../../platform/actor.ts";
import { invalid } from "../../platform/errors.ts";
import { mediaDirectory, originalKey } from "../../storage/blob-store.ts";
import { extensionOf, sanitizePath } from "./paths.ts";
import { UPLOAD } from "./policy.ts";
import type { UploadDeps } from "./service.ts";

export type FolderParts = AsyncIterable<
  | { type: "file"; filename: string; mimetype: string; file: Readable }
  | { type: "field"; fieldname: string; value: unknown }
>;

/**
 * Folder upload: every file streams to disk as it arrives; then the board tree is built from the
 * sanitised paths (a board of the same name under the same parent is reused) and assets are filed.
 */
export async function folderUpload(deps: UploadDeps, actor: UserActor, workspaceId: string, parts: FolderParts) {
  const { db, access, store } = deps;
  await access.require(actor, UPLOAD.create, inWorkspace(workspaceId));
  const staging = `uploads/folder-${randomUUID()}`;
  const files: Array<{ key: string; filename: string; mimetype: string; size: number; sha256: string }> = [];
  const paths = new Map<number, string>();
  let parent: string | null = null;
  try {
    for await (const part of parts) {
      if (part.type === "field") {
        const m = /^file_paths\[(\d+)\]$/.exec(part.fieldname);
        if (m) paths.set(Number(m[1]), String(part.value));
        else if (part.fieldname === "parent_board_id" && part.value) parent = String(part.value);
        continue;
      }
      const key = `${staging}/${files.length}`;
      const put = await store.putStream(key, part.file, { maxBytes: deps.maxUploadBytes });
      files.push({ key, filename: part.filename, mimetype: part.mimetype, size: put.size, sha256: put.sha256 });
    }
    if (files.length === 0)
      throw invalid("Send at least one file in the field files.", [{ field: "files", message: "Required" }]);
    if (parent) await deps.boards.assertFileable(workspaceId, parent);
    const created: Array<{ asset_id: string; name: string; board_id: string | null; path: string }> = [];
    let boardsCreated = 0;
    for (const [i, f] of files.entries()) {
      const clean = sanitizePath(paths.get(i) ?? f.filename) ??
        sanitizePath(f.filename) ?? { boards: [], file: `file-${i + 1}` };
      const { boardId, created: n } = await deps.boards.ensurePath(actor, workspaceId, parent, clean.boards);
      boardsCreated += n;
      const assetId = randomUUID();
      const directory = mediaDirectory(workspaceId, assetId);
      const key = originalKey(directory);
      const row = {
        id: assetId,
        workspaceId,
        name: clean.file,
        extension: extensionOf(clean.file),
        contentType: f.mimetype || "application/octet-stream",
        size: f.size,
        sha256: f.sha256,
        status: "processing",
        boardId,
        userId: actor.userId,
        directory,
        key,
      } as const;
      // Each file is checked against the plan and filed in one transaction (the row lock orders
      // it with other uploads); the ones before a refusal stay.
      await store.move(f.key, key);
      try {
        await db.transaction().execute(async (tx) => {
          await deps.limits?.checkUpload(tx, workspaceId, f.size);
          await deps.assets.create(row, tx);
        });
      } catch (err) {
        await store.deletePrefix(`media/${directory}`).catch(() => undefined);
        throw err;
      }
      await deps.enqueueProcessing(assetId);
      created.push({
        asset_id: assetId,
        name: clean.file,
        board_id: boardId,
        path: [...clean.boards, clean.file].join("/"),
      });
    }
    return { status: "ok" as const, assets: created, boards_created: boardsCreated };
  } finally {
    await store.deletePrefix(staging);
  }
}
