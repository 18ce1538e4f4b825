export { avatarUrl, toUser } from "./serialize.ts";
export { AVATAR_MAX_BYTES, createUsersService, type UsersService } from "./service.ts";
