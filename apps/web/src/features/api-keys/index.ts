// The API keys feature's public surface (issue 36): the Settings → API keys tab's route.
export { apiKeysSettingsRoute } from "./routes";
