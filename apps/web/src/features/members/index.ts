// The members feature's public surface: its route.

export { useMembers } from "./api";
export { membersRoute } from "./routes";
