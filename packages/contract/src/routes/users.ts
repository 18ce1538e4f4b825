import { IdParams } from "../common.ts";
import { MeAnswer, PatchMeBody } from "../users.ts";
import { defineRoute } from "./define.ts";

const tag = "users";

export const usersApi = {
  me: defineRoute({ method: "GET", path: "/users/me", tag, access: "user", response: { 200: MeAnswer } }),
  patchMe: defineRoute({
    method: "PATCH",
    path: "/users/me",
    tag,
    access: "user",
    body: PatchMeBody,
    response: { 200: MeAnswer },
  }),
  // The images themselves: URLs to them come in answers (`avatar_url`), the web never builds them.
  myAvatar: defineRoute({ method: "GET", path: "/users/avatar", tag, access: "user", answer: "bytes" }),
  avatar: defineRoute({
    method: "GET",
    path: "/users/:id/avatar",
    tag,
    access: "user",
    params: IdParams,
    answer: "bytes",
  }),
  /** Multipart: the image in the field `avatar_file`. */
  uploadAvatar: defineRoute({
    method: "POST",
    path: "/users/avatar/upload",
    tag,
    access: "user",
    bodyKind: "multipart",
    response: { 200: MeAnswer },
  }),
  deleteAvatar: defineRoute({
    method: "DELETE",
    path: "/users/avatar",
    tag,
    access: "user",
    response: { 200: MeAnswer },
  }),
};
