import { type Plugin, parseAst } from "vite";

/** The fields of a route object that hold zod schemas; the web's production client reads none of them. */
const SCHEMA_FIELDS = new Set(["params", "query", "body", "response"]);

type Node = { type: string; start: number; end: number; [key: string]: unknown };
type Edit = { at: number; end: number; text: string };

const isNode = (v: unknown): v is Node => !!v && typeof v === "object" && typeof (v as Node).type === "string";
const keyName = (prop: Node) => {
  const key = prop.key as Node | undefined;
  return key?.type === "Identifier" ? (key.name as string) : undefined;
};

/**
 * Production web builds only (with zod stubbed, vite.config.ts). The contract builds its schemas at
 * module level, `const Asset = z.object({...})`: calls a bundler must keep, since it cannot know
 * they are free of side effects, so every schema of every contract module a page touches would ship
 * as dead code. This marks each module-level call of the contract `@__PURE__` (an unused schema is
 * then dropped) and takes the schema fields out of `defineRoute({...})` objects (a route the web
 * calls keeps its method, path and flags, not its schemas). Calls inside functions are left alone.
 */
export function leanContract(): Plugin {
  return {
    name: "hangar:lean-contract",
    apply: "build",
    enforce: "post",
    transform(code, id) {
      if (!/[\\/]packages[\\/]contract[\\/]src[\\/].*\.ts$/.test(id) || id.endsWith(".test.ts")) return null;
      const edits: Edit[] = [];
      const walk = (node: unknown, inChain = false): void => {
        if (Array.isArray(node)) {
          for (const n of node) walk(n, inChain);
          return;
        }
        if (!isNode(node)) return;
        if (/Function|Class/.test(node.type)) return;
        const chain = inChain || node.type === "ChainExpression";
        if ((node.type === "CallExpression" || node.type === "NewExpression") && !chain) {
          edits.push({ at: node.start, end: node.start, text: "(/* @__PURE__ */ " });
          edits.push({ at: node.end, end: node.end, text: ")" });
          const callee = node.callee as Node;
          const [arg] = node.arguments as Node[];
          if (callee.type === "Identifier" && callee.name === "defineRoute" && arg?.type === "ObjectExpression") {
            for (const prop of arg.properties as Node[]) {
              const name = prop.type === "Property" ? keyName(prop) : undefined;
              if (name && SCHEMA_FIELDS.has(name)) {
                const comma = code.slice(prop.end).match(/^\s*,\s*/);
                edits.push({ at: prop.start, end: prop.end + (comma ? comma[0].length : 0), text: "" });
              } else walk(prop, chain);
            }
            walk(callee, chain);
            return;
          }
        }
        for (const [key, value] of Object.entries(node)) if (key !== "type") walk(value, chain);
      };
      const program = parseAst(code) as unknown as { body: Node[] };
      for (const statement of program.body) {
        const decl = statement.type === "ExportNamedDeclaration" ? (statement.declaration as Node | null) : statement;
        if (decl?.type === "VariableDeclaration") walk(decl.declarations);
      }
      if (!edits.length) return null;
      // Stable sort: at one position the outer call's "(" was recorded before the inner one's.
      edits.sort((a, b) => a.at - b.at);
      let out = "";
      let from = 0;
      for (const e of edits) {
        out += code.slice(from, e.at) + e.text;
        from = e.end;
      }
      return { code: out + code.slice(from), map: null };
    },
  };
}
