export { createMembersService, type MembersService } from "./service.ts";
