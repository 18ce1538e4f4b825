// The API keys feature's public surface (issue 36): the Settings → API keys tab's route, and the
// account page's personal access tokens (the same machinery, a person's own).
export { apiKeysSettingsRoute } from "./routes";
export { PersonalTokens } from "./tokens/personal-tokens-section";
