import { aiActionsApi } from "./ai-actions.ts";
import { apiKeysApi } from "./api-keys.ts";
import { assetsApi, trashApi } from "./assets.ts";
import { auditApi } from "./audit.ts";
import { authApi } from "./auth.ts";
import { billingApi } from "./billing.ts";
import { boardsApi } from "./boards.ts";
import { commentsApi } from "./comments.ts";
import { nameRoute, type Route } from "./define.ts";
import { eventsApi } from "./events.ts";
import { fieldsApi } from "./fields.ts";
import { fileRequestsApi, requestUploadsApi } from "./file-requests.ts";
import { peopleApi } from "./people.ts";
import { personalTokensApi } from "./personal-tokens.ts";
import { reviewLinkApi, reviewsApi } from "./reviews.ts";
import { rightsApi } from "./rights.ts";
import { sharedApi, sharesApi } from "./shares.ts";
import { similarApi } from "./similar.ts";
import { ssoApi } from "./sso.ts";
import { downloadsApi, uploadsApi } from "./transfers.ts";
import { usersApi } from "./users.ts";
import { versionsApi } from "./versions.ts";
import { webhooksApi } from "./webhooks.ts";
import { membersApi, workspacesApi } from "./workspaces.ts";

export * from "./define.ts";
export {
  aiActionsApi,
  apiKeysApi,
  assetsApi,
  auditApi,
  authApi,
  billingApi,
  boardsApi,
  commentsApi,
  downloadsApi,
  eventsApi,
  fieldsApi,
  fileRequestsApi,
  membersApi,
  peopleApi,
  personalTokensApi,
  requestUploadsApi,
  reviewLinkApi,
  reviewsApi,
  rightsApi,
  sharedApi,
  sharesApi,
  similarApi,
  ssoApi,
  trashApi,
  uploadsApi,
  usersApi,
  versionsApi,
  webhooksApi,
  workspacesApi,
};

/** Every API route, once. The server registers exactly these; the route-table test walks them. */
export const apiRoutes: readonly Route[] = /* @__PURE__ */ [
  authApi,
  usersApi,
  workspacesApi,
  membersApi,
  boardsApi,
  assetsApi,
  versionsApi,
  similarApi,
  peopleApi,
  personalTokensApi,
  trashApi,
  uploadsApi,
  downloadsApi,
  commentsApi,
  eventsApi,
  fieldsApi,
  rightsApi,
  aiActionsApi,
  sharesApi,
  sharedApi,
  fileRequestsApi,
  requestUploadsApi,
  reviewsApi,
  reviewLinkApi,
  billingApi,
  apiKeysApi,
  webhooksApi,
  auditApi,
  ssoApi,
].flatMap((group) => Object.entries(group).map(([key, route]) => nameRoute(route as Route, key)));
