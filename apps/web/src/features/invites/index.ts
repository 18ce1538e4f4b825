// The invites feature's public surface: its route.
export { inviteRoute } from "./routes";
