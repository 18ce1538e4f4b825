import { screenText } from "@hangar/contract";
import type { FastifySchema, FastifySchemaCompiler } from "fastify";
import { validatorCompiler } from "fastify-type-provider-zod";

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
