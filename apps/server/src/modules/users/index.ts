export { toUser, avatarUrl } from "./serialize.ts";
export { createUsersService, type UsersService, AVATAR_MAX_BYTES } from "./service.ts";
