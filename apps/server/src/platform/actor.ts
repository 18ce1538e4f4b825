import type { UserRow } from "../db/types.ts";

/** Who is calling. A share-link visitor will be a distinct kind (DESIGN.md §3). */
export type Actor =
  | {
      kind: "user";
      userId: string;
      sessionId: string;
      user: UserRow;
      /**
       * A mutating request: its services read roles and assets from the database, not the read cache,
       * so what they read after their own writes is what they wrote.
       */
      fresh?: boolean;
    }
  | { kind: "anonymous" };

export type UserActor = Extract<Actor, { kind: "user" }>;
