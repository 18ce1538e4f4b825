import type {
  CreateFieldBody,
  CustomField,
  FieldOption,
  FieldValue,
  SetFieldValueBody,
  UpdateFieldBody,
  UpdateOptionBody,
} from "@hangar/contract";
import type { z } from "zod";
import type { Db } from "../../db/db.ts";
import { type Access, inWorkspace, type WorkspaceResource } from "../../platform/access.ts";
import type { Actor } from "../../platform/actor.ts";
import { conflict, invalid, notFound, uniqueOr } from "../../platform/errors.ts";
import { FIELD } from "./policy.ts";
import { type FieldRow, fieldsRepo, type ValueRow } from "./repo.ts";
import { type ActionValue, type NewValue, type Setter, valuesRepo } from "./values-repo.ts";

const FIELD_NOT_FOUND = "Field not found.";
/** One field (its definition, its options), or its value on one asset: the access layer's `field`. */
const fieldIn = (workspaceId: string, fieldId: string, assetId?: string): WorkspaceResource =>
  assetId === undefined ? { kind: "field", workspaceId, fieldId } : { kind: "field", workspaceId, fieldId, assetId };
/** The unique indexes a race on a title or a label reaches (migration 20261124-0002). */
const TITLE_KEY = "custom_fields_title";
const LABEL_KEY = "field_options_label";

/** The AI actions on a workspace's options, by option id (modules/ai-actions answers; runtime.ts wires it). */
export type OptionActions = (
  workspaceId: string,
  fieldIds: string[],
) => Promise<Map<string, FieldOption["ai_actions"]>>;

const toOption = (
  o: { id: string; label: string; color: string; position: number },
  actions: FieldOption["ai_actions"] = [],
): FieldOption => ({
  id: o.id,
  label: o.label,
  color: o.color,
  position: o.position,
  ai_actions: actions,
  ai_action_configs: actions.map((a) => ({ kind: a.kind, ...a.config })),
});
const toField = (r: FieldRow, actions: Map<string, FieldOption["ai_actions"]>): CustomField => ({
  id: r.id,
  workspace_id: r.workspace_id,
  title: r.title,
  field_type: r.field_type,
  position: r.position,
  value_count: r.value_count,
  options: r.options.map((o) => toOption(o, actions.get(o.id))),
});

export function toValue(r: ValueRow, type: FieldRow["field_type"] | undefined): FieldValue {
  const display =
    r.option?.label ??
    (r.multi.length ? r.multi.map((o) => o.label).join(", ") : null) ??
    r.text_value ??
    r.date_value ??
    "";
  return {
    id: r.id,
    field_id: r.field_id,
    text_value: type === "TEXT" ? (r.text_value ?? "") : r.text_value,
    date_value: r.date_value,
    option_value: r.option,
    multi_options: r.multi,
    value_display: display,
    set_by: r.set_by_action_id
      ? { kind: "action", action_id: r.set_by_action_id }
      : r.set_by_user_id
        ? { kind: "user", user_id: r.set_by_user_id, display: r.set_by_user_name ?? "" }
        : r.set_by_name !== null
          ? { kind: "visitor", display: r.set_by_name || "Anonymous" }
          : null,
    set_at: r.set_at.toISOString(),
  };
}

/** Custom fields, their options and values (issue 16). SQL in repo.ts and values-repo.ts. */
export function createFieldsService(deps: { db: Db; access: Access; optionActions?: OptionActions }) {
  const { db, access } = deps;

  /** Fields as answered: each option with the AI actions on it (read once for all of them). */
  async function shown(workspaceId: string, rows: FieldRow[]): Promise<CustomField[]> {
    const withOptions = rows.filter((f) => f.options.length).map((f) => f.id);
    const actions =
      withOptions.length && deps.optionActions ? await deps.optionActions(workspaceId, withOptions) : null;
    return rows.map((f) => toField(f, actions ?? new Map()));
  }
  const shownOne = async (workspaceId: string, row: FieldRow) => (await shown(workspaceId, [row]))[0]!;

  async function field(workspaceId: string, fieldId: string): Promise<FieldRow> {
    const f = await fieldsRepo.get(db, workspaceId, fieldId);
    if (!f) throw notFound(FIELD_NOT_FOUND);
    return f;
  }

  /** Turns a body into the value to store, or a 422 naming what does not fit the field. */
  async function valueFor(f: FieldRow, b: z.output<typeof SetFieldValueBody>): Promise<NewValue> {
    const wrong = (kind: string) =>
      invalid(`Field "${f.title}" is ${f.field_type}: it takes no ${kind}`, [
        { field: kind, message: `Not for a ${f.field_type} field` },
      ]);
    if (b.option_value_id !== undefined) {
      if (f.field_type !== "SINGLE_SELECT") throw wrong("option_value_id");
      if (b.option_value_id !== null && !(await valuesRepo.optionsOf(db, f.id, [b.option_value_id])))
        throw invalid("That option does not belong to this field", [
          { field: "option_value_id", message: "Unknown option" },
        ]);
      return { kind: "option", optionId: b.option_value_id };
    }
    if (b.multi_option_ids !== undefined) {
      if (f.field_type !== "MULTI_SELECT") throw wrong("multi_option_ids");
      const ids = [...new Set(b.multi_option_ids)];
      if ((await valuesRepo.optionsOf(db, f.id, ids)) !== ids.length)
        throw invalid("Some options do not belong to this field", [
          { field: "multi_option_ids", message: "Unknown option" },
        ]);
      return { kind: "multi", optionIds: ids };
    }
    if (b.text_value !== undefined) {
      if (f.field_type !== "TEXT") throw wrong("text_value");
      return { kind: "text", text: b.text_value };
    }
    if (f.field_type !== "DATE") throw wrong("date_value");
    return { kind: "date", date: b.date_value ?? null };
  }

  return {
    async list(actor: Actor, workspaceId: string): Promise<CustomField[]> {
      await access.require(actor, FIELD.view, inWorkspace(workspaceId));
      return shown(workspaceId, await fieldsRepo.list(db, workspaceId));
    },
    async create(actor: Actor, workspaceId: string, body: z.output<typeof CreateFieldBody>): Promise<CustomField> {
      await access.require(actor, FIELD.manage, inWorkspace(workspaceId));
      const taken = () => conflict(`A field named "${body.title}" exists already.`);
      if (await fieldsRepo.titleTaken(db, workspaceId, body.title)) throw taken();
      const labels = (body.options ?? []).map((o) => o.label.toLowerCase());
      if (new Set(labels).size !== labels.length)
        throw invalid("Option labels must differ", [{ field: "options", message: "Duplicate label" }]);
      if (body.options?.length && !body.field_type.endsWith("SELECT"))
        throw invalid("Only select fields have options", [{ field: "options", message: "Only for select fields" }]);
      const id = await uniqueOr(
        fieldsRepo.create(db, workspaceId, body.title, body.field_type, body.options ?? []),
        TITLE_KEY,
        taken,
      );
      return shownOne(workspaceId, (await fieldsRepo.get(db, workspaceId, id))!);
    },
    async reorder(actor: Actor, workspaceId: string, ids: string[]): Promise<CustomField[]> {
      await access.require(actor, FIELD.manage, inWorkspace(workspaceId));
      await fieldsRepo.reorder(db, workspaceId, ids);
      return shown(workspaceId, await fieldsRepo.list(db, workspaceId));
    },
    async update(actor: Actor, workspaceId: string, fieldId: string, body: z.output<typeof UpdateFieldBody>) {
      await access.require(actor, FIELD.manage, fieldIn(workspaceId, fieldId));
      const f = await field(workspaceId, fieldId);
      if (body.title !== undefined && body.title !== f.title) {
        const taken = () => conflict(`A field named "${body.title}" exists already.`);
        if (await fieldsRepo.titleTaken(db, workspaceId, body.title, f.id)) throw taken();
        await uniqueOr(fieldsRepo.rename(db, f.id, body.title), TITLE_KEY, taken);
      }
      let cleared = 0;
      if (body.field_type !== undefined && body.field_type !== f.field_type) {
        cleared = await fieldsRepo.changeType(db, f.id, f.field_type, body.field_type);
      }
      return {
        ...(await shownOne(workspaceId, (await fieldsRepo.get(db, workspaceId, f.id))!)),
        values_cleared: cleared,
      };
    },
    async remove(actor: Actor, workspaceId: string, fieldId: string) {
      await access.require(actor, FIELD.manage, fieldIn(workspaceId, fieldId));
      const f = await field(workspaceId, fieldId);
      return { status: "ok" as const, values_removed: await fieldsRepo.remove(db, f.id) };
    },
    async createOption(
      actor: Actor,
      workspaceId: string,
      fieldId: string,
      body: { label: string; color: string; position?: number },
    ) {
      await access.require(actor, FIELD.manage, fieldIn(workspaceId, fieldId));
      const f = await field(workspaceId, fieldId);
      if (!f.field_type.endsWith("SELECT")) throw invalid("Only select fields have options");
      const taken = () => conflict(`The field has an option "${body.label}" already.`);
      if (await fieldsRepo.labelTaken(db, f.id, body.label)) throw taken();
      return toOption(await uniqueOr(fieldsRepo.createOption(db, f.id, body), LABEL_KEY, taken));
    },
    /** A new order for a field's options: the list must name each of them once, or it is stale (409). */
    async reorderOptions(actor: Actor, workspaceId: string, fieldId: string, ids: string[]): Promise<CustomField> {
      await access.require(actor, FIELD.manage, fieldIn(workspaceId, fieldId));
      const f = await field(workspaceId, fieldId);
      const known = new Set(f.options.map((o) => o.id));
      if (new Set(ids).size !== ids.length || ids.length !== known.size || ids.some((id) => !known.has(id)))
        throw conflict("The options of this field changed meanwhile: reload and try again.");
      await fieldsRepo.reorderOptions(db, f.id, ids);
      return shownOne(workspaceId, (await fieldsRepo.get(db, workspaceId, f.id))!);
    },
    async updateOption(
      actor: Actor,
      workspaceId: string,
      fieldId: string,
      optId: string,
      body: z.output<typeof UpdateOptionBody>,
    ) {
      await access.require(actor, FIELD.manage, fieldIn(workspaceId, fieldId));
      const f = await field(workspaceId, fieldId);
      if (!(await fieldsRepo.option(db, f.id, optId))) throw notFound("Option not found.");
      const taken = () => conflict(`The field has an option "${body.label}" already.`);
      if (body.label && (await fieldsRepo.labelTaken(db, f.id, body.label, optId))) throw taken();
      return toOption(await uniqueOr(fieldsRepo.updateOption(db, optId, body), LABEL_KEY, taken));
    },
    async removeOption(actor: Actor, workspaceId: string, fieldId: string, optId: string) {
      await access.require(actor, FIELD.manage, fieldIn(workspaceId, fieldId));
      const f = await field(workspaceId, fieldId);
      if (!(await fieldsRepo.option(db, f.id, optId))) throw notFound("Option not found.");
      return { status: "ok" as const, values_cleared: await fieldsRepo.removeOption(db, f.id, optId) };
    },
    async values(
      actor: Actor,
      workspaceId: string,
      target: { assetId?: string; boardId?: string },
    ): Promise<FieldValue[]> {
      // Every field's value on one asset or board: the object's own resource (a visitor's link must share it).
      const resource: WorkspaceResource = target.assetId
        ? { kind: "asset", workspaceId, assetId: target.assetId }
        : { kind: "board", workspaceId, boardId: target.boardId! };
      await access.require(actor, FIELD.view, resource);
      const live = target.assetId
        ? await valuesRepo.liveAssets(db, workspaceId, [target.assetId])
        : await valuesRepo.liveBoards(db, workspaceId, [target.boardId!]);
      if (!live) throw notFound(target.assetId ? "Asset not found." : "Board not found.");
      const types = new Map((await fieldsRepo.list(db, workspaceId)).map((f) => [f.id, f.field_type]));
      return (await valuesRepo.of(db, workspaceId, target)).map((v) => toValue(v, types.get(v.field_id)));
    },
    /** Every field with the asset's value (or null), in field order: the shared view's fields tab (issue 17). */
    async entriesFor(
      actor: Actor,
      workspaceId: string,
      assetId: string,
    ): Promise<Array<{ field: CustomField; value: FieldValue | null }>> {
      await access.require(actor, FIELD.view, { kind: "asset", workspaceId, assetId });
      if (!(await valuesRepo.liveAssets(db, workspaceId, [assetId]))) throw notFound("Asset not found.");
      const rows = await fieldsRepo.list(db, workspaceId);
      const fields = await shown(workspaceId, rows);
      const values = new Map((await valuesRepo.of(db, workspaceId, { assetId })).map((v) => [v.field_id, v]));
      return rows.map((f, i) => {
        const v = values.get(f.id);
        return { field: fields[i]!, value: v ? toValue(v, f.field_type) : null };
      });
    },
    /** Sets one value on many assets and boards (spec 02 §7); visitors pass their name as the setter. */
    async setValue(
      actor: Actor,
      workspaceId: string,
      fieldId: string,
      body: z.output<typeof SetFieldValueBody>,
      visitorName?: string | null,
    ) {
      const assetIds = [...new Set(body.asset_ids ?? [])];
      const boardIds = [...new Set(body.board_ids ?? [])];
      // The field's value on one asset (what a visitor may set, inside their link), or on many objects.
      const resource =
        assetIds.length === 1 && boardIds.length === 0
          ? fieldIn(workspaceId, fieldId, assetIds[0]!)
          : fieldIn(workspaceId, fieldId);
      const grant = await access.require(actor, FIELD.setValue, resource);
      const f = await field(workspaceId, fieldId);
      const value = await valueFor(f, body);
      if (assetIds.length && (await valuesRepo.liveAssets(db, workspaceId, assetIds)) !== assetIds.length)
        throw notFound("Some assets were not found.");
      if (boardIds.length && (await valuesRepo.liveBoards(db, workspaceId, boardIds)) !== boardIds.length)
        throw notFound("Some boards were not found.");
      const by: Setter =
        grant.kind === "member"
          ? { userId: grant.userId, name: null, actionId: null }
          : { userId: null, name: visitorName ?? "", actionId: null };
      let count = 0;
      if (assetIds.length)
        count += await valuesRepo.set(db, workspaceId, f.id, { column: "asset_id", ids: assetIds }, value, by);
      if (boardIds.length)
        count += await valuesRepo.set(db, workspaceId, f.id, { column: "board_id", ids: boardIds }, value, by);
      return { success: true as const, count, field_id: f.id };
    },
    /** A field of the workspace (its type), for a feature that checked its own access (AI actions). */
    fieldOf: (workspaceId: string, fieldId: string) => fieldsRepo.find(db, workspaceId, fieldId),
    /** An option of a field, for a feature that checked its own access (AI actions). */
    optionOf: (fieldId: string, optId: string) => fieldsRepo.option(db, fieldId, optId),
    /** Sets the values AI actions chose, by their rules (values-repo.ts), all in one transaction. */
    applyByActions: (workspaceId: string, values: ActionValue[]) => valuesRepo.applyByActions(db, workspaceId, values),
  };
}
export type FieldsService = ReturnType<typeof createFieldsService>;
