import type { FastifyDynamicSwaggerOptions } from "@fastify/swagger";
import {
  API_KEY_PREFIX,
  API_SCOPES,
  CSRF,
  ErrorBody,
  PERSONAL_TOKEN_PREFIX,
  type Route,
  routeKey,
  routeScope,
} from "@hangar/contract";
import { jsonSchemaTransform, jsonSchemaTransformObject } from "fastify-type-provider-zod";
import { z } from "zod";
import { OPENAPI_DESCRIPTION } from "./openapi-text.ts";
import { SESSION_COOKIE } from "./session-hook.ts";

/**
 * The OpenAPI document integrators start from (`/api/docs`, issue 36). Every operation is made here
 * from its contract route (`config.route`, set by addRoute) so that a route added anywhere gets the
 * same treatment: an operationId (the tag and its key in its group), its summary, how it
 * authenticates, the statuses it can fail with (from its access, CSRF and input, plus the contract's
 * `errors`), and request bodies the handler reads itself (multipart forms, raw bytes) described too.
 * A test lints the document with redocly's recommended rules and generates a client from it.
 */

type JsonSchema = Record<string, unknown>;
type TransformInput = Parameters<typeof jsonSchemaTransform>[0];
type TransformOutput = ReturnType<typeof jsonSchemaTransform>;

/** Each error status's reusable response (components.responses), with what it means here. */
const ERROR_RESPONSES: Record<number, { name: string; description: string }> = {
  400: { name: "BadRequest", description: "The request could not be read (a malformed URL, body or signature)." },
  401: {
    name: "Unauthorized",
    description:
      "Not signed in, or the API key is revoked, expired or not valid (the detail says which); on a share or review link, its password is needed or was wrong.",
  },
  402: { name: "PlanLimit", description: "The workspace's plan does not allow it (storage, seats, largest file)." },
  403: {
    name: "Forbidden",
    description:
      "Not allowed: the CSRF token is missing or wrong, the member's role or the API key's scope does not allow it, or the link is disabled or expired.",
  },
  404: {
    name: "NotFound",
    description: "Not found, or not visible to the caller: an outsider gets 404, never a hint that it exists.",
  },
  409: { name: "Conflict", description: "The object's state does not allow it now (the detail says why)." },
  413: { name: "PayloadTooLarge", description: "The body or the file is larger than allowed." },
  415: { name: "UnsupportedMediaType", description: "The body's content type is not one this route reads." },
  422: {
    name: "ValidationFailed",
    description: "The input is not valid: `errors[].field` names each field that is wrong and why.",
  },
  429: {
    name: "TooManyRequests",
    description: "Too many requests: wait the seconds `Retry-After` says (API keys: 600 a minute each).",
  },
  503: { name: "Unavailable", description: "The server cannot answer now (the database is unreachable)." },
  507: { name: "StorageFull", description: "The server's storage is full." },
};

/** Statuses any route of this shape can answer, before its own (`route.errors`). */
export function errorStatuses(route: Route): number[] {
  const s = new Set<number>(route.errors ?? []);
  const pathParams = route.path.match(/:\w+/g) ?? [];
  const hasBody = route.body !== undefined || route.form !== undefined || route.bodyKind === "raw";
  if (route.params || route.query || hasBody) s.add(422);
  if (hasBody && route.bodyKind !== "raw") s.add(413);
  if (route.csrf) s.add(403);
  if (route.access !== "public") s.add(401);
  // A user route refuses API keys (403); a workspace route answers outsiders 404, a role or a key's
  // scope that does not allow it 403, and a key past its rate 429.
  if (route.access === "user") s.add(403);
  if (route.access === "workspace") for (const c of [403, 404, 429]) s.add(c);
  if (pathParams.some((p) => p !== ":id") || (route.access !== "workspace" && pathParams.length > 0)) s.add(404);
  return [...s].sort((a, b) => a - b);
}

const camel = (words: string) =>
  words
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w, i) => (i === 0 ? w.toLowerCase() : w[0]!.toUpperCase() + w.slice(1)))
    .join("");

/** The operation's name in generated clients: the tag and the route's key, `assetsList`. */
export function operationIdOf(route: Route): string {
  if (route.operationId) return route.operationId;
  const key = routeKey(route) ?? camel(`${route.method} ${route.path}`);
  return camel(`${route.tag} ${key}`.replace(/([a-z])([A-Z])/g, "$1 $2"));
}

function security(route: Route): Array<Record<string, string[]>> {
  const member: Record<string, string[]> = route.csrf ? { session: [], csrf: [] } : { session: [] };
  // Personal access tokens call every member operation but those that make secrets or sign-in changes.
  const token = route.sessionOnly ? [] : [{ personalToken: [] }];
  if (route.access === "workspace") return [member, { apiKey: [] }, ...token];
  if (route.access === "user") return [member, ...token];
  // Public: a mutation still needs the double-submit token; anything else no credential at all.
  return route.csrf ? [{ csrf: [] }] : [{}];
}

function description(route: Route): string | undefined {
  const scope = routeScope(route);
  const noToken = route.sessionOnly ? " Personal access tokens are refused (403): it needs a signed-in session." : "";
  if (scope) return `An API key needs the scope \`${scope}\`${scope === "admin" ? "" : " (or `admin`)"}.${noToken}`;
  if (route.access === "user") return `Needs a signed-in member: API keys are refused.${noToken}`;
  return undefined;
}

const binary = { type: "string", format: "binary" };
const successText = (code: string) => (code === "201" ? "Created." : code === "204" ? "No content." : "OK.");

/** The schema addRoute registered (validation only) completed with what the document needs. */
function documentRoute(input: TransformInput, route: Route): TransformOutput {
  const schema: Record<string, unknown> = { ...(input.schema as Record<string, unknown>) };
  schema.operationId = operationIdOf(route);
  schema.summary = route.summary ?? `${route.method} ${route.path}`;
  schema.tags = [route.tag];
  schema.security = security(route);
  const text = description(route);
  if (text) schema.description = text;
  const scope = routeScope(route);
  if (scope) schema["x-api-key-scope"] = scope;
  // Bodies the handler reads itself: described, never validated here (addRoute left them out).
  if (route.bodyKind === "json-or-multipart" && route.body) {
    schema.body = route.body;
    schema.consumes = ["application/json", "multipart/form-data"];
  } else if (route.bodyKind === "multipart") {
    schema.body = route.form ?? z.object({});
    schema.consumes = ["multipart/form-data"];
  } else if (route.bodyKind === "buffer") {
    schema.body = z.record(z.string(), z.unknown());
    schema.consumes = ["application/json"];
  }
  const out = jsonSchemaTransform({ ...input, schema });
  const doc = out.schema as Record<string, unknown>;
  if (route.bodyKind === "raw") {
    doc.body = binary;
    doc.consumes = ["application/octet-stream"];
  }
  const response = (doc.response ?? {}) as Record<string, JsonSchema>;
  for (const [code, r] of Object.entries(response)) {
    r["x-response-description"] = successText(code);
  }
  if (route.answer === "bytes" && Object.keys(response).length === 0) {
    response[200] = { ...binary, "x-response-description": "The file's bytes." };
    doc.produces = route.produces ?? ["application/octet-stream"];
  }
  if (route.answer === "redirect") {
    response[302] = {
      type: "null",
      "x-response-description": "A redirect: the `Location` header says where the browser goes next.",
    };
  }
  if (route.answer === "stream") {
    response[200] = {
      type: "string",
      "x-response-description":
        "A `text/event-stream`: each event's `event:` names what changed, its `data:` the ids (JSON); a `resync` event asks to reload.",
    };
    doc.produces = ["text/event-stream"];
  }
  doc.response = response;
  doc["x-hangar-errors"] = errorStatuses(route);
  return out;
}

/** The routes outside the contract: signed media, health and readiness. */
function documentOther(input: TransformInput): TransformOutput {
  const { url } = input;
  const base = { tags: ["operations"], security: [{}] };
  if (url === "/media/*") {
    return {
      url: "/media/{workspaceId}/{directoryId}/{file}",
      schema: {
        ...base,
        tags: ["media"],
        operationId: "mediaGet",
        summary: "A rendition or original, by a URL an answer gave (signed, or with the member's session)",
        params: {
          type: "object",
          properties: { workspaceId: { type: "string" }, directoryId: { type: "string" }, file: { type: "string" } },
          required: ["workspaceId", "directoryId", "file"],
        },
        querystring: {
          type: "object",
          properties: { exp: { type: "string" }, sig: { type: "string" }, by: { type: "string" } },
        },
        produces: ["application/octet-stream"],
        response: { 200: { ...binary, "x-response-description": "The file's bytes." } },
        "x-hangar-errors": [403, 404],
      },
    } as TransformOutput;
  }
  if (url === "/healthz" || url === "/readyz") {
    const ready = url === "/readyz";
    return {
      url,
      schema: {
        ...base,
        operationId: ready ? "ready" : "health",
        summary: ready ? "Ready: the database answers and its migrations are applied" : "Alive: the process answers",
        response: {
          200: {
            type: "object",
            properties: { status: { type: "string" } },
            "x-response-description": "OK.",
          },
        },
        "x-hangar-errors": ready ? [503] : [],
      },
    } as TransformOutput;
  }
  return jsonSchemaTransform(input);
}

function transform(input: TransformInput): TransformOutput {
  const route = (input.route as { config?: { route?: Route } }).config?.route;
  return route ? documentRoute(input, route) : documentOther(input);
}

/** Errors as references to components.responses; unnamed status codes kept as they are. */
function transformObject(input: Parameters<typeof jsonSchemaTransformObject>[0]) {
  const doc = jsonSchemaTransformObject(input) as {
    paths?: Record<string, Record<string, { responses?: Record<string, unknown>; [k: string]: unknown }>>;
    components?: Record<string, unknown>;
  };
  const used = new Set<number>();
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item)) {
      const errors = op["x-hangar-errors"] as number[] | undefined;
      delete op["x-hangar-errors"];
      op.responses ??= {};
      // A success answer whose schema is a shared component loses x-response-description on the way.
      for (const [code, r] of Object.entries(op.responses) as Array<[string, { description?: string }]>) {
        if (r.description === "Default Response") r.description = successText(code);
      }
      if (!errors) continue;
      for (const code of errors) {
        const known = ERROR_RESPONSES[code];
        if (!known) throw new Error(`openapi: no error response for status ${code}`);
        used.add(code);
        op.responses[String(code)] = { $ref: `#/components/responses/${known.name}` };
      }
    }
  }
  const responses: Record<string, unknown> = {};
  for (const code of [...used].sort((a, b) => a - b)) {
    const { name, description: text } = ERROR_RESPONSES[code]!;
    responses[name] = {
      description: text,
      ...(code === 429
        ? { headers: { "Retry-After": { description: "Seconds to wait.", schema: { type: "integer" } } } }
        : {}),
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    };
  }
  const components = (doc.components ?? {}) as Record<string, Record<string, unknown>>;
  doc.components = {
    ...components,
    schemas: { ...components.schemas, Error: errorSchema() },
    responses: { ...components.responses, ...responses },
  };
  dropUnused(doc.components.schemas as Record<string, unknown>, doc);
  return doc;
}

/**
 * A schema named in the contract (`.meta({ id })`) comes out twice, as read and as written
 * (`AssetInput`); the variant no operation uses is left out.
 */
function dropUnused(schemas: Record<string, unknown>, doc: unknown) {
  for (let changed = true; changed; ) {
    changed = false;
    for (const name of Object.keys(schemas)) {
      const { [name]: self, ...others } = schemas;
      const rest = JSON.stringify({
        ...(doc as object),
        components: { ...(doc as { components: object }).components, schemas: others },
      });
      if (self !== undefined && !rest.includes(`"#/components/schemas/${name}"`)) {
        delete schemas[name];
        changed = true;
      }
    }
  }
}

function errorSchema(): JsonSchema {
  const { $schema: _drop, ...schema } = z.toJSONSchema(ErrorBody, { target: "draft-2020-12", io: "output" });
  return { ...schema, description: "Every error: a sentence for people (`detail`), a code for programs." };
}

export function openApiOptions(): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Hangar API",
        version: "1",
        description: OPENAPI_DESCRIPTION,
      },
      servers: [{ url: "/" }],
      components: {
        securitySchemes: {
          session: {
            type: "apiKey",
            in: "cookie",
            name: SESSION_COOKIE,
            description: "The session cookie sign-in sets (HttpOnly).",
          },
          csrf: {
            type: "apiKey",
            in: "header",
            name: CSRF.altHeader,
            description: `The CSRF token, equal to the \`${CSRF.cookie}\` cookie (also accepted as \`${CSRF.header}\`); see "Signing in and CSRF".`,
          },
          apiKey: {
            type: "http",
            scheme: "bearer",
            description: `A workspace API key (\`${API_KEY_PREFIX}…\`); no CSRF token. Scopes: ${API_SCOPES.map((s) => `\`${s}\``).join(", ")}; each operation's \`x-api-key-scope\` names the one it needs.`,
          },
          personalToken: {
            type: "http",
            scheme: "bearer",
            description: `A personal access token (\`${PERSONAL_TOKEN_PREFIX}…\`, from the account page): acts as its user in each of their workspaces with their role there, capped by its scopes (as \`x-api-key-scope\` names them); no CSRF token; always expires.`,
          },
        },
      },
    },
    transform: transform as FastifyDynamicSwaggerOptions["transform"],
    transformObject: transformObject as FastifyDynamicSwaggerOptions["transformObject"],
  };
}
