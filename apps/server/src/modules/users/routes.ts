import { usersApi as api } from "@hangar/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import { invalid } from "../../platform/errors.ts";
import type { App } from "../../platform/http.ts";
import { addRoute } from "../../platform/register-route.ts";
import { userOf } from "../../platform/route-helpers.ts";
import type { UsersService } from "./service.ts";

export function usersRoutes(app: App, users: UsersService) {
  addRoute(app, api.me, async (req) => ({ status: "ok" as const, data: await users.me(userOf(req)) }));

  addRoute(app, api.patchMe, async (req) => ({
    status: "ok" as const,
    data: await users.patchMe(userOf(req), req.body),
  }));

  const sendAvatar = async (req: FastifyRequest, reply: FastifyReply, id: string) => {
    const a = await users.avatar(userOf(req), id);
    reply
      .header("Content-Type", a.mime_type)
      .header("Cache-Control", "private, max-age=86400")
      .header("X-Content-Type-Options", "nosniff");
    return reply.send(a.image);
  };
  addRoute(app, api.myAvatar, (req, reply) => sendAvatar(req, reply, userOf(req).userId));
  addRoute(app, api.avatar, (req, reply) => sendAvatar(req, reply, req.params.id));

  addRoute(app, api.uploadAvatar, async (req) => {
    if (!req.isMultipart())
      throw invalid("Send the image as multipart/form-data in the field avatar_file.", [
        { field: "avatar_file", message: "Required" },
      ]);
    const file = await req.file();
    if (file?.fieldname !== "avatar_file") {
      throw invalid("Send the image in the field avatar_file.", [{ field: "avatar_file", message: "Required" }]);
    }
    const bytes = await file.toBuffer();
    return { status: "ok" as const, data: await users.setAvatar(userOf(req), bytes) };
  });

  addRoute(app, api.deleteAvatar, async (req) => ({
    status: "ok" as const,
    data: await users.deleteAvatar(userOf(req)),
  }));
}
