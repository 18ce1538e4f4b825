// The audit log feature's public surface (issue 36): Settings → Audit log, and an object's own history.
export { ObjectHistory } from "./components/object-history";
export { auditSettingsRoute } from "./routes";
