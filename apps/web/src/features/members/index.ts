// The members feature's public surface: its route.
export { membersRoute } from "./routes";
