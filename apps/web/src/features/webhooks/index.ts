// The webhooks feature's public surface (issue 36): the Settings → Webhooks tab's routes.
export { webhooksSettingsRoute } from "./routes";
