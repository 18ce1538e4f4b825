import { uploadsApi as api, UploadInitBody } from "@hangar/contract";
import { bodyStream } from "../../platform/body-parsing.ts";
import { invalid } from "../../platform/errors.ts";
import type { App } from "../../platform/http.ts";
import { addRoute } from "../../platform/register-route.ts";
import { userOf } from "../../platform/route-helpers.ts";
import { parseBody } from "../../platform/validation.ts";
import type { UploadsService } from "./service.ts";

export function uploadsRoutes(app: App, uploads: UploadsService, maxUploadBytes: number) {
  // JSON, or multipart with fields name/size/content_type/board_id and optionally the `file` part
  // (its metadata is used; the bytes go to the returned URLs, so a file part is drained, not kept).
  addRoute(app, api.init, async (req) => {
    let raw: Record<string, unknown> = (req.body as Record<string, unknown>) ?? {};
    if (req.isMultipart()) {
      raw = {};
      let counted = 0;
      for await (const part of req.parts({ limits: { fileSize: maxUploadBytes, files: 1 } })) {
        if (part.type === "field") raw[part.fieldname] = part.value;
        else {
          raw.name ??= part.filename;
          raw.content_type ??= part.mimetype;
          for await (const chunk of part.file) counted += (chunk as Buffer).length;
          if (part.file.truncated) raw.size = maxUploadBytes + 1;
        }
      }
      raw.size ??= counted;
    }
    return uploads.init(userOf(req), req.params.id, parseBody(UploadInitBody, raw));
  });

  addRoute(app, api.complete, (req) => uploads.complete(userOf(req), req.params.id, req.body));

  addRoute(app, api.abort, (req) => uploads.abort(userOf(req), req.params.id, req.body));

  addRoute(app, api.folder, async (req) => {
    if (!req.isMultipart())
      throw invalid("Send multipart/form-data with files and file_paths[n].", [
        { field: "files", message: "Required" },
      ]);
    return uploads.folder(
      userOf(req),
      req.params.id,
      req.parts({ limits: { fileSize: maxUploadBytes, files: 10_000, fields: 20_000 } }),
    );
  });

  // Raw bytes to a signed URL: the body stream goes to disk as it arrives, never whole into memory.
  addRoute(app, api.putPart, async (req, reply) => {
    const { etag } = await uploads.putPart(
      req.params.uploadId,
      req.params.partNumber,
      req.query.exp,
      req.query.sig,
      bodyStream(req.raw),
    );
    reply.header("ETag", etag).header("Access-Control-Expose-Headers", "ETag");
    return reply.status(200).send({ status: "ok", etag });
  });
}
