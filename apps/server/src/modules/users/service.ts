import type { PatchMeBody } from "@hangar/contract";
import { fileTypeFromBuffer } from "file-type";
import type { Db } from "../../db/db.ts";
import type { NewUser, UserUpdate } from "../../db/types.ts";
import { decodeImage, sharpFromPixels } from "../../media/image.ts";
import { type Access, account } from "../../platform/access.ts";
import type { UserActor } from "../../platform/actor.ts";
import { AppError, invalid, notFound } from "../../platform/errors.ts";
import { cacheKeys, type ReadCache } from "../../platform/read-cache.ts";
import { USER } from "./policy.ts";
import { usersRepo } from "./repo.ts";
import { toUser } from "./serialize.ts";

export const AVATAR_MAX_BYTES = 10 * 1024 * 1024;
const AVATAR_TYPES = new Set([
  "image/jpeg",
  "image/png",
  "image/webp",
  "image/gif",
  "image/avif",
  "image/heic",
  "image/tiff",
]);

export function createUsersService(deps: { db: Db; cache: ReadCache; access: Access }) {
  const { db, cache, access } = deps;
  return {
    // For other features (auth, members): they reach users through this service, never the repo.
    count: () => usersRepo.count(db),
    findById: (id: string) => usersRepo.findById(db, id),
    findByEmail: (email: string) => usersRepo.findByEmail(db, email),
    create: (user: NewUser) => usersRepo.insert(db, user),
    // Also from links opened without a session (e-mail verification, password reset): the caller's
    // next request must see the change, so this process's read cache hears of it at once.
    async update(id: string, patch: UserUpdate) {
      const row = await usersRepo.update(db, id, patch);
      cache.bump(cacheKeys.user(id));
      return row;
    },

    async me(actor: UserActor) {
      await access.require(actor, USER.view, account(actor.userId));
      return toUser(actor.user);
    },
    async patchMe(actor: UserActor, body: PatchMeBody) {
      await access.require(actor, USER.edit, account(actor.userId));
      const row = await usersRepo.update(db, actor.userId, body);
      if (!row) throw notFound();
      return toUser(row);
    },
    /** The type comes from the bytes, never the name; the image is re-encoded, so nothing else survives. */
    async setAvatar(actor: UserActor, bytes: Buffer) {
      await access.require(actor, USER.edit, account(actor.userId));
      if (bytes.length === 0)
        throw invalid("The avatar file is empty.", [{ field: "avatar_file", message: "Empty file" }]);
      const type = await fileTypeFromBuffer(bytes);
      if (!type || !AVATAR_TYPES.has(type.mime)) {
        throw invalid("The avatar must be an image (JPEG, PNG, WebP, GIF, AVIF, HEIC or TIFF).", [
          { field: "avatar_file", message: "Not a supported image" },
        ]);
      }
      let out: Buffer;
      try {
        // The media pipeline's decoder: orientation applied, HEIC included (sharp alone has no HEVC).
        const decoded = await decodeImage(bytes, { previewSize: 512, maxInputPixels: 50_000_000 });
        out = await sharpFromPixels(decoded.preview)
          .resize(256, 256, { fit: "cover" })
          .webp({ quality: 85 })
          .toBuffer();
      } catch {
        throw invalid("The avatar image could not be read.", [{ field: "avatar_file", message: "Unreadable image" }]);
      }
      await usersRepo.putAvatar(db, actor.userId, out, "image/webp");
      const row = await usersRepo.update(db, actor.userId, { avatar_updated_at: new Date() });
      return toUser(row!);
    },
    async deleteAvatar(actor: UserActor) {
      await access.require(actor, USER.edit, account(actor.userId));
      await usersRepo.deleteAvatar(db, actor.userId);
      const row = await usersRepo.update(db, actor.userId, { avatar_updated_at: null });
      return toUser(row!);
    },
    /** Own avatar, or the avatar of someone who shares a workspace with the caller; else 404. */
    async avatar(actor: UserActor, userId: string) {
      await access.require(actor, USER.view, account(userId));
      const a = await usersRepo.getAvatar(db, userId);
      if (!a) throw new AppError("NOT_FOUND", "No avatar.");
      return a;
    },
  };
}
export type UsersService = ReturnType<typeof createUsersService>;
