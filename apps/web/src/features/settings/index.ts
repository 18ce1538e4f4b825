// The settings feature's public surface: its route.
export { settingsRoute } from "./routes";
