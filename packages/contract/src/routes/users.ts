import { z } from "zod";
import { FilePart, IdParams } from "../common.ts";
import { MeAnswer, PatchMeBody } from "../users.ts";
import { defineRoute } from "./define.ts";

const tag = "users";

export const usersApi = {
  me: defineRoute({
    method: "GET",
    path: "/users/me",
    summary: "The signed-in user",
    tag,
    access: "user",
    response: { 200: MeAnswer },
  }),
  patchMe: defineRoute({
    method: "PATCH",
    path: "/users/me",
    summary: "Update the signed-in user's profile",
    tag,
    access: "user",
    body: PatchMeBody,
    response: { 200: MeAnswer },
  }),
  // The images themselves: URLs to them come in answers (`avatar_url`), the web never builds them.
  myAvatar: defineRoute({
    method: "GET",
    path: "/users/avatar",
    summary: "The signed-in user's avatar image",
    tag,
    access: "user",
    answer: "bytes",
    produces: ["image/*"],
  }),
  avatar: defineRoute({
    method: "GET",
    path: "/users/:id/avatar",
    summary: "A user's avatar image",
    tag,
    access: "user",
    params: IdParams,
    answer: "bytes",
    produces: ["image/*"],
  }),
  /** Multipart: the image in the field `avatar_file`. */
  uploadAvatar: defineRoute({
    method: "POST",
    path: "/users/avatar/upload",
    summary: "Upload an avatar image (multipart, field avatar_file)",
    errors: [413],
    tag,
    access: "user",
    bodyKind: "multipart",
    form: z.object({ avatar_file: FilePart }),
    response: { 200: MeAnswer },
  }),
  deleteAvatar: defineRoute({
    method: "DELETE",
    path: "/users/avatar",
    summary: "Remove the signed-in user's avatar",
    tag,
    access: "user",
    response: { 200: MeAnswer },
  }),
};
