/** Texts the client shows, exactly as the spec's error catalogue gives them. */
export const STORE_MESSAGES = {
  fetchWorkspaces: "Failed to fetch workspaces",
  fetchWorkspace: "Failed to fetch workspace",
  fetchAssets: "Failed to fetch assets",
  invalidResponse: "Invalid response format from server",
  fetchBoards: "Failed to fetch boards",
} as const;

export const ACCOUNT_MESSAGES = {
  resendVerification: "Failed to resend verification email",
  verifyEmail: "Failed to verify email",
  verifyEmailChange: "Failed to verify email change",
  inviteDetails: "Failed to get invitation details",
  acceptInvite: "Failed to accept invitation",
  updateProfile: "Failed to update profile",
} as const;

export const CSRF = {
  cookie: "XSRF-TOKEN",
  header: "X-XSRF-TOKEN",
  altHeader: "X-CSRFToken",
} as const;

export const NOTIFICATION_TIMEOUT_MS = 5000;
