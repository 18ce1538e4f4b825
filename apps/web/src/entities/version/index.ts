// The version entity (issue 29): an asset's versions (their query and key), how a version shows as
// the asset (versionView), its label, and the viewer's address parameters for them.
export {
  useVersions,
  VERSION_PARAM,
  versionByNumber,
  versionKeys,
  versionLabel,
  versionsQuery,
  versionView,
  withoutVersionParams,
} from "./api";
