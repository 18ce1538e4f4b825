import { type FieldError, screenText } from "@hangar/contract";
import type { FastifySchema, FastifySchemaCompiler } from "fastify";
import { validatorCompiler } from "fastify-type-provider-zod";
import type { z } from "zod";
import { invalid } from "./errors.ts";

/**
 * The zod validator of fastify-type-provider-zod, preceded by the contract's text rule
 * (`screenText`) on every body, query and path parameter: control characters answer 422 naming the
 * field (as any validation failure), never reach PostgreSQL as a 500; bidi overrides are removed.
 */
export const screeningValidatorCompiler: FastifySchemaCompiler<FastifySchema> = (route) => {
  const validate = validatorCompiler(route as Parameters<typeof validatorCompiler>[0]);
  if (route.httpPart === "headers") return validate;
  return (data: unknown) => {
    const { value, issues } = screenText(data);
    if (issues.length > 0) {
      return {
        error: issues.map((i) => ({
          instancePath: i.path,
          message: i.message,
          keyword: "text",
          params: {},
          schemaPath: "",
        })) as never,
      };
    }
    return validate(value);
  };
};

/**
 * For routes that read their body themselves (JSON or multipart fields): the same text rule, then
 * the schema, failing as the validator does (422 naming each field).
 */
export function parseBody<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const { value, issues } = screenText(raw);
  const errors: FieldError[] = issues.map((i) => ({
    field: i.path.slice(1).replaceAll("/", ".") || "body",
    message: i.message,
  }));
  if (errors.length === 0) {
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    for (const i of parsed.error.issues) errors.push({ field: i.path.join(".") || "body", message: i.message });
  }
  throw invalid(`Invalid request: ${[...new Set(errors.map((e) => e.field))].join(", ")}.`, errors);
}
