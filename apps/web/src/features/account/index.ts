// The account feature's public surface: its route.
export { accountRoute } from "./routes";
