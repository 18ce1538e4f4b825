/**
 * What `zod` resolves to in production builds of the web app (vite.config.ts), so its ~25 kB of gzip
 * stay out of every chunk. The contract still builds its schemas at import time; here each builder
 * call or property answers the same inert stand-in, so they cost nothing. Production code never
 * checks an answer against a schema (callApi does it in development builds only, and the few places
 * that must inspect an answer or the URL do it by hand), so a schema actually used is a bug: it
 * throws at once instead of passing silently.
 */
const used = () => {
  throw new Error("zod is not bundled in production builds of the web app: check this value by hand");
};

const stub: unknown = new Proxy(() => stub, {
  get: (_target, key) => {
    // Not a thenable, not a primitive: await and template strings leave it alone.
    if (typeof key === "symbol" || key === "then") return undefined;
    if (key === "parse" || key === "safeParse" || key === "parseAsync" || key === "safeParseAsync") return used;
    return stub;
  },
  apply: () => stub,
});

export const z = stub;
export default stub;
