export * from "./boards.ts";
export * from "./common.ts";
export * from "./messages.ts";
export * from "./users.ts";
export * from "./workspaces.ts";
