import type { Role } from "@hangar/contract";
import { type Client, signedInUser, type TestEnv, workspaceWith } from "./harness.ts";
import { png, processedAsset } from "./versions.ts";

type Member = Awaited<ReturnType<typeof signedInUser>>;

/** A workspace with an ADMIN and named members of the given roles (each their own client). */
export async function team<const N extends string>(env: TestEnv, roles: Record<N, Role>) {
  const w = await workspaceWith(env);
  const m = {} as Record<N, Member>;
  for (const [name, role] of Object.entries(roles) as Array<[N, Role]>) {
    const member = await signedInUser(env, { first_name: name });
    await env.rt.db
      .insertInto("memberships")
      .values({ workspace_id: w.ws.id, user_id: member.user.id, role })
      .execute();
    m[name] = member;
  }
  return { ws: w.ws.id, admin: w.admin, m };
}

let colour = 0;
/** Processed image assets (processed here, whether or not the env has workers), each of its own bytes. */
export async function images(env: TestEnv, client: Client, ws: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    colour = (colour + 37) % 256;
    ids.push(await processedAsset(env, client, ws, `image-${colour}.png`, await png(`rgb(${colour}, 120, 60)`)));
  }
  return ids;
}
