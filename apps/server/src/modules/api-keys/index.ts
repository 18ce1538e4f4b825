export {
  API_KEY_LIMIT,
  API_KEY_MESSAGES,
  type ApiKeysService,
  apiKeyLimitKey,
  createApiKeysService,
  secretHash,
} from "./service.ts";
