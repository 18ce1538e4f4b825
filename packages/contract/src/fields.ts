import { z } from "zod";
import { AiAction } from "./ai-actions.ts";
import { Id } from "./common.ts";

/**
 * Custom fields (spec 02 §3 Custom field, Field option, Field value; §4 Custom field editing; §7).
 * A workspace's fields have a type and, for selects, coloured options; values belong to assets (and
 * boards). ADMIN manages fields; ADMIN and EDITOR set values; COMMENTER reads.
 *
 * Changing a field's type keeps what can be kept: SINGLE_SELECT ↔ MULTI_SELECT keep their options (a
 * multi value keeps its first option when it becomes single); any type becoming TEXT keeps each value
 * as its display text; every other change clears the values (the answer says how many).
 */
export const FIELD_TYPES = ["SINGLE_SELECT", "MULTI_SELECT", "TEXT", "DATE"] as const;
export const FieldType = z.enum(FIELD_TYPES);
export type FieldType = z.infer<typeof FieldType>;

/** Spec 01 §2: the single-select editor's "Unassigned" choice (a null option id), in this grey. */
export const UNASSIGNED = { label: "Unassigned", color: "#9e9e9e" } as const;
/** Spec 02 §9: an identical field update within this long is ignored. */
export const FIELD_UPDATE_GUARD_MS = 1_000;
export const FIELD_TEXT_MAX = 5_000;
/** One call sets a value on at most this many assets (one statement). */
export const FIELD_BULK_MAX = 10_000;

const Hex = z.string().regex(/^#[0-9a-fA-F]{6}$/, "Expected a colour like #1e90ff");
const Title = z.string().trim().min(1, "Title is required").max(100, "Title is too long");
const Label = z.string().trim().min(1, "Label is required").max(100, "Label is too long");

export const FieldOption = z.object({
  id: Id,
  label: z.string(),
  color: z.string(),
  position: z.number().int(),
  /** AI actions that pick this option (ai-actions.ts), oldest first. */
  ai_actions: z.array(AiAction),
  /** Each action's `{kind, ...config}`, in the same order (spec 02 names both lists). */
  ai_action_configs: z.array(z.record(z.string(), z.unknown())),
});
export type FieldOption = z.infer<typeof FieldOption>;

export const CustomField = z.object({
  id: Id,
  workspace_id: Id,
  title: z.string(),
  field_type: FieldType,
  options: z.array(FieldOption),
  position: z.number().int(),
  /** How many assets and boards have a value for it (what deleting it removes). */
  value_count: z.number().int(),
});
export type CustomField = z.infer<typeof CustomField>;
export const CustomFieldList = z.array(CustomField);

export const CreateFieldBody = z.object({
  title: Title,
  field_type: FieldType,
  options: z
    .array(z.object({ label: Label, color: Hex }))
    .max(100)
    .optional(),
});
export const UpdateFieldBody = z
  .object({ title: Title.optional(), field_type: FieldType.optional() })
  .refine((b) => b.title !== undefined || b.field_type !== undefined, { message: "Nothing to change" });
export const ReorderFieldsBody = z.object({ field_ids: z.array(Id).min(1).max(500) });
export const FieldParams = z.object({ id: Id, fieldId: Id });
export const OptionParams = z.object({ id: Id, fieldId: Id, optId: Id });
/** The field's options in their new order: every one of them, each once (a stale list is refused). */
export const ReorderOptionsBody = z.object({ option_ids: z.array(Id).min(1).max(500) });
export const CreateOptionBody = z.object({ label: Label, color: Hex, position: z.number().int().min(0).optional() });
export const UpdateOptionBody = z
  .object({ label: Label.optional(), color: Hex.optional(), position: z.number().int().min(0).optional() })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: "Nothing to change" });
export const UpdateFieldAnswer = CustomField.extend({ values_cleared: z.number().int() });
export const DeleteFieldAnswer = z.object({ status: z.literal("ok"), values_removed: z.number().int() });
export const DeleteOptionAnswer = z.object({ status: z.literal("ok"), values_cleared: z.number().int() });

export const OptionRef = z.object({ id: Id, label: z.string(), color: z.string() });
/** Who set a value last: a member, a share-link visitor, or an AI action. */
export const ValueSetBy = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("user"), user_id: Id, display: z.string() }),
  z.object({ kind: z.literal("visitor"), display: z.string() }),
  z.object({ kind: z.literal("action"), action_id: Id }),
]);
export const FieldValue = z.object({
  id: Id,
  field_id: Id,
  text_value: z.string().nullable(),
  date_value: z.string().nullable(),
  option_value: OptionRef.nullable(),
  multi_options: z.array(OptionRef),
  /** The value as text: the option label(s), the text, or the date. */
  value_display: z.string(),
  set_by: ValueSetBy.nullable(),
  set_at: z.string().nullable(),
});
export type FieldValue = z.infer<typeof FieldValue>;
export const FieldValueList = z.array(FieldValue);
export const FieldValuesParams = z.object({ id: Id, objectId: Id });

const VALUE_KINDS = ["option_value_id", "multi_option_ids", "text_value", "date_value"] as const;
/** A value body names exactly one kind (members' and share-link visitors' bodies alike). */
export function oneValueKind(b: Partial<Record<(typeof VALUE_KINDS)[number], unknown>>, ctx: z.RefinementCtx) {
  const kinds = VALUE_KINDS.filter((k) => b[k] !== undefined);
  if (kinds.length !== 1)
    ctx.addIssue({
      code: "custom",
      path: kinds[1] ? [kinds[1]] : ["option_value_id"],
      message: "Send exactly one of option_value_id, multi_option_ids, text_value, date_value",
    });
}

/** Exactly one value kind; `option_value_id: null` is Unassigned, empty text or list clears. */
export const SetFieldValueBody = z
  .object({
    asset_ids: z.array(Id).max(FIELD_BULK_MAX).optional(),
    /** Boards whose own value is set (boards carry values too). */
    board_ids: z.array(Id).max(1000).optional(),
    /** The board the caller works in (context only). */
    board_id: Id.nullish(),
    option_value_id: Id.nullable().optional(),
    multi_option_ids: z.array(Id).max(100).optional(),
    text_value: z.string().max(FIELD_TEXT_MAX).optional(),
    date_value: z.iso.date().nullable().optional(),
  })
  .superRefine((b, ctx) => {
    oneValueKind(b, ctx);
    if (!b.asset_ids?.length && !b.board_ids?.length)
      ctx.addIssue({ code: "custom", path: ["asset_ids"], message: "Name at least one asset or board" });
  });
export type SetFieldValueBody = z.input<typeof SetFieldValueBody>;
export const SetFieldValueAnswer = z.object({ success: z.literal(true), count: z.number().int(), field_id: Id });

/** Spec 02 §8 Custom fields, spec 01 §8. */
export const FIELD_MESSAGES = {
  updateFailed: "Failed to update field",
  fetchFailed: "Failed to fetch fields",
  valueFailed: "Failed to update field value",
  noFields: "No custom fields",
  noFieldsDetail: "No custom fields are available for this asset",
  updated: (title: string, n: number) => `Field "${title}" updated for ${n} item(s)`,
} as const;
