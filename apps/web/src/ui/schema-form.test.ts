import { AI_ACTION_CONFIGS, AI_ACTION_KINDS, AiActionBody } from "@hangar/contract";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { actionSummary } from "../features/fields/ai-actions-settings";
import { cleanValues, initialValues, type JsonSchema } from "./schema-form";

/** The form generator on the very schemas the server answers (z.toJSONSchema of the contract's configs). */
const schemaOf = (kind: (typeof AI_ACTION_KINDS)[number]) =>
  z.toJSONSchema(AI_ACTION_CONFIGS[kind], { io: "input", unrepresentable: "any" }) as JsonSchema;

describe("schema form", () => {
  it("starts from the schema's defaults, or the saved config over them", () => {
    expect(initialValues(schemaOf("object_detected"))).toEqual({ min_confidence: 0.5 });
    expect(initialValues(schemaOf("text_in_image"))).toEqual({ match: "any", case_sensitive: false });
    expect(initialValues(schemaOf("object_detected"), { labels: ["dog"], min_confidence: 0.7 })).toEqual({
      labels: ["dog"],
      min_confidence: 0.7,
    });
  });

  it("sends only what was filled, which the contract accepts for every kind", () => {
    const filled: Record<(typeof AI_ACTION_KINDS)[number], Record<string, unknown>> = {
      object_detected: { labels: ["person"] },
      text_in_image: { words: ["invoice"], pattern: "" },
      dominant_color: { color: "#e03131" },
      image_quality: { min_sharpness: 60, max_contrast: undefined },
      metadata_matches: { file_name: "IMG_*", camera_make: "", orientation: "landscape" },
    };
    for (const kind of AI_ACTION_KINDS) {
      const config = cleanValues({ ...initialValues(schemaOf(kind)), ...filled[kind] });
      expect(config).not.toHaveProperty("pattern");
      expect(config).not.toHaveProperty("camera_make");
      expect(AiActionBody.safeParse({ kind, config }).success, kind).toBe(true);
    }
    // Nothing filled is refused by the server, not sent as empty strings.
    expect(AiActionBody.safeParse({ kind: "metadata_matches", config: cleanValues({ file_name: "" }) }).success).toBe(
      false,
    );
  });

  it("every property of every kind maps to an input the form knows", () => {
    for (const kind of AI_ACTION_KINDS) {
      for (const [k, p] of Object.entries(schemaOf(kind).properties ?? {})) {
        const type = Array.isArray(p.type) ? p.type[0] : p.type;
        expect(["string", "number", "boolean", "array"], `${kind}.${k}`).toContain(type);
        expect(p.description, `${kind}.${k} has a label`).toBeTruthy();
      }
    }
  });

  it("summarises an action in one line", () => {
    expect(actionSummary({ kind: "object_detected", config: { labels: ["person", "dog"], min_confidence: 0.5 } })).toBe(
      "person, dog ≥ 0.5",
    );
    expect(actionSummary({ kind: "text_in_image", config: { words: ["invoice"], match: "any" } })).toBe(
      "any of: invoice",
    );
    expect(actionSummary({ kind: "metadata_matches", config: { orientation: "portrait", use_regex: false } })).toBe(
      "orientation portrait",
    );
  });
});
