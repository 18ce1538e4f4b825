import { downloadsApi as api } from "@hangar/contract";
import { contentDisposition } from "../../platform/content-disposition.ts";
import type { App } from "../../platform/http.ts";
import { addRoute } from "../../platform/register-route.ts";
import { userOf } from "../../platform/route-helpers.ts";
import type { DownloadsService } from "./service.ts";

export function downloadsRoutes(app: App, downloads: DownloadsService) {
  addRoute(app, api.request, (req) => downloads.request(userOf(req), req.params.id, req.body));

  // Signed URL from the route above: the signature is the proof, so no session is needed (a
  // browser download may not send one) and membership is re-checked by the service.
  addRoute(app, api.zip, async (req, reply) => {
    const { filename, stream } = await downloads.zip(req.query.spec ?? "", req.query.exp, req.query.sig);
    reply
      .header("Content-Type", "application/zip")
      .header("Content-Disposition", contentDisposition("attachment", filename))
      .header("Cache-Control", "private, no-store")
      .header("X-Content-Type-Options", "nosniff");
    return reply.send(stream);
  });
}
