import { IdParams, MeAnswer, PatchMeBody } from "@hangar/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import { invalid } from "../../platform/errors.ts";
import type { App } from "../../platform/http.ts";
import { userOf } from "../../platform/route-helpers.ts";
import type { UsersService } from "./service.ts";

export function usersRoutes(app: App, users: UsersService) {
  const user = { access: "user" as const };

  app.get("/users/me", { config: user, schema: { tags: ["users"], response: { 200: MeAnswer } } }, async (req) => ({
    status: "ok" as const,
    data: users.me(userOf(req)),
  }));

  app.patch(
    "/users/me",
    { config: user, schema: { tags: ["users"], body: PatchMeBody, response: { 200: MeAnswer } } },
    async (req) => ({
      status: "ok" as const,
      data: await users.patchMe(userOf(req), req.body),
    }),
  );

  const sendAvatar = async (req: FastifyRequest, reply: FastifyReply, id: string) => {
    const a = await users.avatar(userOf(req), id);
    reply
      .header("Content-Type", a.mime_type)
      .header("Cache-Control", "private, max-age=86400")
      .header("X-Content-Type-Options", "nosniff");
    return reply.send(a.image);
  };
  app.get("/users/avatar", { config: user, schema: { tags: ["users"] } }, (req, reply) =>
    sendAvatar(req, reply, userOf(req).userId),
  );
  app.get("/users/:id/avatar", { config: user, schema: { tags: ["users"], params: IdParams } }, (req, reply) =>
    sendAvatar(req, reply, (req.params as { id: string }).id),
  );

  app.post(
    "/users/avatar/upload",
    { config: user, schema: { tags: ["users"], consumes: ["multipart/form-data"], response: { 200: MeAnswer } } },
    async (req) => {
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
    },
  );

  app.delete(
    "/users/avatar",
    { config: user, schema: { tags: ["users"], response: { 200: MeAnswer } } },
    async (req) => ({
      status: "ok" as const,
      data: await users.deleteAvatar(userOf(req)),
    }),
  );
}
