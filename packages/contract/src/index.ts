export * from "./assets.ts";
export * from "./boards.ts";
export * from "./common.ts";
export * from "./messages.ts";
export * from "./uploads.ts";
export * from "./users.ts";
export * from "./workspaces.ts";
