import {
  CompleteUploadAnswer,
  CompleteUploadBody,
  FolderUploadAnswer,
  PartParams,
  SignedQuery,
  UploadInitAnswer,
  UploadInitBody,
  WorkspaceParams,
} from "@hangar/contract";
import { invalid } from "../../platform/errors.ts";
import type { App } from "../../platform/http.ts";
import { userOf } from "../../platform/route-helpers.ts";
import type { UploadsService } from "./service.ts";

export function uploadsRoutes(app: App, uploads: UploadsService, maxUploadBytes: number) {
  const ws = { access: "workspace" as const };
  const tags = ["uploads"];

  // JSON, or multipart with fields name/size/content_type/board_id and optionally the `file` part
  // (its metadata is used; the bytes go to the returned URLs, so a file part is drained, not kept).
  app.post(
    "/workspaces/:id/assets/upload",
    { config: ws, schema: { tags, params: WorkspaceParams, response: { 200: UploadInitAnswer } } },
    async (req) => {
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
      const parsed = UploadInitBody.safeParse(raw);
      if (!parsed.success) {
        const errors = parsed.error.issues.map((i) => ({ field: i.path.join(".") || "body", message: i.message }));
        throw invalid(`Invalid request: ${[...new Set(errors.map((e) => e.field))].join(", ")}.`, errors);
      }
      return uploads.init(userOf(req), req.params.id, parsed.data);
    },
  );

  app.post(
    "/workspaces/:id/assets/upload/complete",
    {
      config: ws,
      schema: { tags, params: WorkspaceParams, body: CompleteUploadBody, response: { 200: CompleteUploadAnswer } },
    },
    (req) => uploads.complete(userOf(req), req.params.id, req.body),
  );

  app.post(
    "/workspaces/:id/upload-folder",
    {
      config: ws,
      schema: {
        tags,
        params: WorkspaceParams,
        consumes: ["multipart/form-data"],
        response: { 200: FolderUploadAnswer },
      },
    },
    async (req) => {
      if (!req.isMultipart())
        throw invalid("Send multipart/form-data with files and file_paths[n].", [
          { field: "files", message: "Required" },
        ]);
      return uploads.folder(
        userOf(req),
        req.params.id,
        req.parts({ limits: { fileSize: maxUploadBytes, files: 10_000, fields: 20_000 } }),
      );
    },
  );

  // Raw bytes to a signed URL: the body stream goes to disk as it arrives, never whole into memory.
  app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser("*", (_req, _payload, done) => done(null));
    raw.put(
      "/uploads/:uploadId/parts/:partNumber",
      { config: { access: "public", csrf: false }, schema: { tags, params: PartParams, querystring: SignedQuery } },
      async (req, reply) => {
        const p = req.params as { uploadId: string; partNumber: number };
        const q = req.query as { exp: string; sig: string };
        const { etag } = await uploads.putPart(p.uploadId, p.partNumber, q.exp, q.sig, req.raw);
        reply.header("ETag", etag).header("Access-Control-Expose-Headers", "ETag");
        return reply.status(200).send({ status: "ok", etag });
      },
    );
  });
}
