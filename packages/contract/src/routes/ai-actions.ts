import {
  AiAction,
  AiActionBody,
  AiActionDeleted,
  AiActionParams,
  AiActionResultList,
  AiResultsQuery,
  AiRun,
  AiRunBody,
  AiRunParams,
  AvailableAiActions,
  RecognisedText,
} from "../ai-actions.ts";
import { FieldValuesParams, OptionParams } from "../fields.ts";
import { WorkspaceParams } from "../workspaces.ts";
import { defineRoute } from "./define.ts";

const tag = "ai-actions";
const access = "workspace";

/** AI actions on field options (issue 16; shapes in ../ai-actions.ts). ADMIN manages, members read. */
export const aiActionsApi = {
  available: defineRoute({
    method: "GET",
    path: "/workspaces/:id/ai-actions/available",
    tag,
    access,
    summary: "The kinds of AI action this server runs, each with the JSON Schema of its config",
    params: WorkspaceParams,
    response: { 200: AvailableAiActions },
  }),
  create: defineRoute({
    method: "POST",
    path: "/workspaces/:id/custom-fields/:fieldId/options/:optId/ai-actions",
    summary: "Attach an AI action to a field option (ADMIN)",
    tag,
    access,
    params: OptionParams,
    body: AiActionBody,
    response: { 201: AiAction },
  }),
  update: defineRoute({
    method: "PUT",
    path: "/workspaces/:id/custom-fields/:fieldId/options/:optId/ai-actions/:actionId",
    summary: "Change an AI action (ADMIN)",
    tag,
    access,
    params: AiActionParams,
    body: AiActionBody,
    response: { 200: AiAction },
  }),
  remove: defineRoute({
    method: "DELETE",
    path: "/workspaces/:id/custom-fields/:fieldId/options/:optId/ai-actions/:actionId",
    tag,
    access,
    summary: "Delete an action; values it set stay until a person or another action changes them",
    params: AiActionParams,
    response: { 200: AiActionDeleted },
  }),
  results: defineRoute({
    method: "GET",
    path: "/workspaces/:id/ai-actions/results",
    tag,
    access,
    summary: "Each action's last evaluation on an asset: matched, confidence, evidence, whether it set the value",
    params: WorkspaceParams,
    query: AiResultsQuery,
    response: { 200: AiActionResultList },
  }),
  startRun: defineRoute({
    method: "POST",
    path: "/workspaces/:id/ai-actions/runs",
    tag,
    access,
    summary: "Run the actions on every asset (a job); read its progress with the run's id",
    params: WorkspaceParams,
    body: AiRunBody,
    response: { 201: AiRun },
  }),
  run: defineRoute({
    method: "GET",
    path: "/workspaces/:id/ai-actions/runs/:runId",
    summary: "The progress of a run of the AI actions",
    tag,
    access,
    params: AiRunParams,
    response: { 200: AiRun },
  }),
  recognisedText: defineRoute({
    method: "GET",
    path: "/workspaces/:id/assets/:objectId/recognised-text",
    tag,
    access,
    summary: "Text OCR found in the image or the document's pages, with word boxes",
    params: FieldValuesParams,
    response: { 200: RecognisedText },
  }),
};
