import type { UserRow } from "../db/types.ts";

/** Who is calling. A share-link visitor will be a distinct kind (DESIGN.md §3). */
export type Actor = { kind: "user"; userId: string; sessionId: string; user: UserRow } | { kind: "anonymous" };

export type UserActor = Extract<Actor, { kind: "user" }>;
