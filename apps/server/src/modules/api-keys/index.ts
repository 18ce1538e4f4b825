export {
  createPersonalTokensService,
  PERSONAL_TOKEN_LIMIT,
  PERSONAL_TOKEN_MESSAGES,
  type PersonalTokensService,
  personalTokenLimitKey,
} from "./personal-tokens.ts";
export {
  API_KEY_LIMIT,
  API_KEY_MESSAGES,
  type ApiKeysService,
  apiKeyLimitKey,
  createApiKeysService,
  secretHash,
} from "./service.ts";
